/**
 * The scanner's questions answered off the page's thread (ScanOptions.findAway; see ./scan.ts and
 * ./find-batch.ts). Questions asked within one task go as one request, sent when the task ends (a
 * microtask: one request per scanning slice). An answer is settled only if it is still the latest
 * question for its container and the container's text nodes still hold what was read; otherwise
 * the mutation that changed them has queued a rescan, which asks again. A request that fails or
 * comes back malformed is answered here if the scanner can read (./scan.ts), else not at all.
 */
import type { PageCountry } from './page-country';
import { MAX_FIND_CHARS, MAX_FIND_ITEMS, answersFrom, findRequest, fitsFindRequest, type FindAnswer, type FindItem, type FindRequest } from './find-batch';
import type { TextPiece } from './scan-types';

/** One container's text (or a tel: link's href, an input's value), with what the page says about it, waiting for its numbers. */
export interface Question {
  /** The results key: a container, or the <a> / <input> itself. */
  container: Node;
  /** The container's text, the link's href or the input's value. */
  text: string;
  /** Absent for a container's text. */
  kind?: 'tel' | 'input';
  pieces: TextPiece[];
  /** The page's country for it (./page-country.ts), when the text may hold a national-format number. */
  context: PageCountry | null;
  /** Its field label ('' none), or undefined when labels are off or not read yet. */
  label?: string;
}

export interface AwayHost {
  /** Settles a question with its numbers per country (in `item.countries` order), or on the page when `answer` is null. */
  settle(question: Question, countries: (string | null)[], answer: FindAnswer | null): void;
  /** The question's text holds no number. */
  settleNone(container: Node): void;
  isLive(node: Node): boolean;
  /** After a request's answers were settled. */
  answered(): void;
}

interface Asked {
  question: Question;
  item: FindItem;
  /** The text nodes' data when read. */
  data: string[];
}

function sameQuestion(out: Asked, question: Question, item: FindItem): boolean {
  const a = out.question.pieces;
  const b = question.pieces;
  return (
    out.item.text === item.text &&
    out.item.tel === item.tel &&
    out.item.label === item.label &&
    out.item.countries.join() === item.countries.join() &&
    a.length === b.length &&
    a.every((p, i) => p.node === b[i]!.node && p.at === b[i]!.at)
  );
}

export class AwayFinder {
  private batch: Asked[] = [];
  private batchChars = 0;
  /** Per container, its latest question still out. */
  private readonly latest = new Map<Node, Asked>();
  private outstanding = 0;
  /** After a failed request the rest is answered on the page (the background is gone or refuses). */
  private broken = false;

  constructor(
    private readonly send: (request: FindRequest) => Promise<unknown>,
    private readonly host: AwayHost,
  ) {}

  /** Queues the question; false when it must be answered on the page (too big for a request, or no background). */
  ask(question: Question, countries: (string | null)[]): boolean {
    const item: FindItem = { text: question.text, countries, label: question.label ?? '', ...(question.kind === 'tel' ? { tel: true } : {}) };
    if (this.broken || !fitsFindRequest(item)) {
      this.forget(question.container);
      return false;
    }
    // The same text of the same nodes is already out (the document's walk after the visible blocks'):
    // its answer will do.
    const out = this.latest.get(question.container);
    if (out && sameQuestion(out, question, item)) return true;
    const asked: Asked = { question, item, data: question.pieces.map((p) => p.node.data) };
    this.latest.set(question.container, asked);
    if (this.batch.length === 0) queueMicrotask(() => this.flush());
    this.batch.push(asked);
    this.batchChars += item.text.length;
    if (this.batch.length >= MAX_FIND_ITEMS || this.batchChars >= MAX_FIND_CHARS) this.flush();
    return true;
  }

  /** The container's text was settled on the page: an answer still on its way is stale. */
  forget(container: Node): void {
    if (this.latest.size > 0) this.latest.delete(container);
  }

  busy(): boolean {
    return this.batch.length > 0 || this.outstanding > 0;
  }

  clear(): void {
    this.batch = [];
    this.batchChars = 0;
    this.latest.clear();
  }

  private flush(): void {
    const asked = this.batch;
    if (asked.length === 0) return;
    this.batch = [];
    this.batchChars = 0;
    const items = asked.map((a) => a.item);
    this.outstanding++;
    const settle = (answers: FindAnswer[] | null) => {
      this.outstanding--;
      asked.forEach((a, i) => {
        const { container } = a.question;
        if (this.latest.get(container) !== a) return;
        this.latest.delete(container);
        const answer = answers ? answers[i]! : null;
        // Most texts hold none: nothing to place, so nothing to check (a text changed since is asked again).
        if (answer && answer.every((found) => found.length === 0)) return this.host.settleNone(container);
        if (!this.host.isLive(container) || a.question.pieces.some((p, j) => p.node.data !== a.data[j])) return;
        this.host.settle(a.question, a.item.countries, answer);
      });
      this.host.answered();
    };
    this.send(findRequest(items)).then(
      (reply) => {
        const answers = answersFrom(reply, items);
        if (answers) return settle(answers);
        this.broken = true;
        settle(null);
      },
      () => {
        this.broken = true;
        settle(null);
      },
    );
  }
}

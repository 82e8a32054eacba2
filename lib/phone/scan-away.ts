/**
 * The scanner's questions answered off the page's thread (ScanOptions.findAway; see ./scan.ts and
 * ./find-batch.ts). Questions wait in a queue and go as requests within the limits both sides share
 * (find-batch.ts): texts, characters and JSON per request, and the frame's share of the background —
 * at most FIND_LIMITS.frameInFlight requests out and framePerSecond begun in any second. A request
 * the background answers "busy" (its tab's share is taken by other frames) goes again when it says.
 *
 * A text longer than a request takes is read in slices (./find-slices.ts), each prepared (its
 * prefilter, the page's country for it) only when it is about to go, so a 1 MB text costs the page
 * one slice's work per task; its numbers are settled together once every slice is answered.
 *
 * An answer is settled only if it is still the latest question for its container and the
 * container's text nodes still hold what was read; otherwise the mutation that changed them has
 * queued a rescan, which asks again. A request that fails or comes back malformed or refused is
 * answered here if the scanner can read (./scan.ts), else not at all: the background is gone or
 * click-to-call is off here.
 */
import type { PageCountry } from './page-country';
import {
  FIND_LIMITS,
  MAX_FIND_BATCH,
  MAX_FIND_CHARS,
  MAX_FIND_ITEMS,
  MAX_FIND_TEXT,
  REQUEST_JSON_BASE,
  answersFrom,
  findRequest,
  fitsFindRequest,
  holdsNone,
  isFindBusy,
  itemJsonLength,
  type FindAnswer,
  type FindItem,
  type FindLimits,
  type FindRequest,
} from './find-batch';
import { sliceAt, type Slice } from './find-slices';
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

/** One slice of a long question, as asked and answered. */
export interface SliceRead extends Slice {
  countries: (string | null)[];
  context: PageCountry | null;
  /** Null until answered; [] per country for a slice with nothing to read. */
  answer: FindAnswer | null;
}

export interface AwayHost {
  /** Settles a question with its numbers per country (in `item.countries` order), or on the page when `answer` is null. */
  settle(question: Question, countries: (string | null)[], answer: FindAnswer | null): void;
  /** Settles a long question from its slices' answers (offsets in each slice's text). */
  settleSlices(question: Question, slices: SliceRead[]): void;
  /** The countries (and page context) a slice of a long question is read for; null: it cannot hold a number. */
  prepareSlice(question: Question, text: string): { countries: (string | null)[]; context: PageCountry | null } | null;
  /** The question's text holds no number. */
  settleNone(container: Node): void;
  isLive(node: Node): boolean;
  /** After a request's answers were settled. */
  answered(): void;
}

interface Asked {
  question: Question;
  item: FindItem;
  /** A long question: its slices so far, where the next starts, and how many are out. */
  long?: { slices: SliceRead[]; next: number; out: number; ready: SliceRead[] };
  /** A whole question's item key (itemKey). */
  key?: string;
}

/** One entry of a request: a question, or one slice of a long one. */
interface Part {
  asked: Asked;
  item: FindItem;
  slice?: SliceRead;
  /** Other questions of the same item in this request: asked once, each settled with its answer. */
  same?: Asked[];
}

/** A text's answer depends on the item alone (its text, countries, label, and whether it is a tel: href). */
function itemKey(item: FindItem): string {
  return `${item.tel ? 't' : ''}\u0001${item.countries.join(',')}\u0001${item.label}\u0001${item.text}`;
}

/** Answers a frame keeps (the newest), so a text it shows again is settled without asking. */
export const KNOWN_ANSWERS = 4_000;

/** Its text nodes no longer hold what the walk read. */
function changedSince(question: Question): boolean {
  return question.pieces.some((p) => p.node.data !== p.data);
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

export interface AwayOptions {
  /** The frame's share of the background (default FIND_LIMITS: the background's own numbers). */
  limits?: Pick<FindLimits, 'frameInFlight' | 'framePerSecond'>;
  now?: () => number;
}

export class AwayFinder {
  private queue: Asked[] = [];
  /** Per container, its latest question still out. */
  private readonly latest = new Map<Node, Asked>();
  private outstanding = 0;
  /** When the frame's last requests began (the last second's). */
  private begun: number[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flushQueued = false;
  /** "Busy" answers in a row: each waits twice as long as the one before (many frames of one tab then spread out). */
  private busyStreak = 0;
  /** After a failed request the rest is answered on the page (the background is gone or refuses). */
  private broken = false;
  private readonly limits: Pick<FindLimits, 'frameInFlight' | 'framePerSecond'>;
  private readonly now: () => number;
  /**
   * Answers had, by item: a text the frame shows again (one number on many rows of a list, a list
   * rendered anew in new nodes) is settled from here, not sent again. Why: on a 5,000-row list with a
   * hundred numbers, sending every row's text was a quarter of the page's cost (bench/page-cost.ts).
   */
  private readonly known = new Map<string, FindAnswer>();
  /** Queued questions whose answers came meanwhile (with them), to settle at the next flush. */
  private ready: Array<[Asked, FindAnswer]> = [];

  constructor(
    private readonly send: (request: FindRequest) => Promise<unknown>,
    private readonly host: AwayHost,
    options: AwayOptions = {},
  ) {
    this.limits = options.limits ?? FIND_LIMITS;
    this.now = options.now ?? (() => Date.now());
  }

  /** Queues the question; false when it must be answered on the page (no background, or a label or countries past the caps). */
  ask(question: Question, countries: (string | null)[]): boolean {
    const item: FindItem = { text: question.text, countries, label: question.label ?? '' };
    if (question.kind === 'tel') item.tel = true;
    // A tel: href is never sliced (no link's href is that long).
    if (this.broken || !fitsFindRequest(item) || (item.tel && !fitsWhole(item))) {
      this.forget(question.container);
      return false;
    }
    // The same text of the same nodes is already out (the document's walk after the visible blocks'):
    // its answer will do.
    const out = this.latest.get(question.container);
    if (out && sameQuestion(out, question, item)) return true;
    const asked: Asked = { question, item };
    if (!fitsWhole(item)) asked.long = { slices: [], next: 0, out: 0, ready: [] };
    else {
      asked.key = itemKey(item);
      // Its answer is known (the same text elsewhere in the frame, or before): settled now, not sent.
      // Its nodes were read this instant, so none of an answer's later checks (still the latest
      // question, nodes unchanged, still on the page) can fail; an older question still out goes stale.
      const known = this.known.get(asked.key);
      if (known) {
        this.forget(question.container);
        this.settleFresh(asked, known);
        return true;
      }
    }
    this.latest.set(question.container, asked);
    this.queue.push(asked);
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => {
        this.flushQueued = false;
        this.flush();
      });
    }
    return true;
  }

  /** The container's text was settled on the page: an answer still on its way is stale. */
  forget(container: Node): void {
    if (this.latest.size > 0) this.latest.delete(container);
  }

  busy(): boolean {
    return this.queue.length > 0 || this.outstanding > 0 || this.ready.length > 0;
  }

  clear(): void {
    this.queue = [];
    this.ready = [];
    this.latest.clear();
    this.known.clear();
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Sends what the frame's share allows now; comes back when an answer frees a place or the second rolls on. */
  private flush(): void {
    this.sendWhatFits();
    if (this.settleKnown()) this.host.answered();
  }

  private sendWhatFits(): void {
    while (this.queue.length > 0 && !this.broken && this.timer === undefined) {
      if (this.outstanding >= this.limits.frameInFlight) return;
      const now = this.now();
      this.begun = this.begun.filter((at) => now - at < 1000);
      if (this.begun.length >= this.limits.framePerSecond) return this.wait(this.begun[0]! + 1000 - now);
      const parts = this.take();
      if (parts.length === 0) continue;
      // When it goes (preparing slices takes a moment): the background counts from its arrival.
      this.begun.push(this.now());
      this.request(parts);
    }
  }

  private wait(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, Math.max(1, ms));
  }

  /** Settles the questions whose answers were known when asked; true when one was. */
  private settleKnown(): boolean {
    const ready = this.ready;
    if (ready.length === 0) return false;
    this.ready = [];
    for (const [asked, answer] of ready) this.settleAsked(asked, answer);
    return true;
  }

  /** A whole question's answer (null: it failed, read it here if this scanner reads), unless the page has moved on. */
  private settleAsked(asked: Asked, answer: FindAnswer | null): void {
    if (this.stale(asked)) return;
    const { container } = asked.question;
    this.latest.delete(container);
    // Most texts hold none: nothing to place, so nothing to check (a text changed since is asked again).
    if (answer && holdsNone(answer)) return this.host.settleNone(container);
    if (!this.host.isLive(container) || changedSince(asked.question)) return;
    this.host.settle(asked.question, asked.item.countries, answer);
  }

  /** A question's answer settled in the step that read its nodes. */
  private settleFresh(asked: Asked, answer: FindAnswer): void {
    if (holdsNone(answer)) this.host.settleNone(asked.question.container);
    else this.host.settle(asked.question, asked.item.countries, answer);
  }

  private remember(key: string, answer: FindAnswer): void {
    this.known.delete(key);
    if (this.known.size >= KNOWN_ANSWERS) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, answer);
  }

  private stale(asked: Asked): boolean {
    return this.latest.get(asked.question.container) !== asked;
  }

  /** The next request's parts from the queue's head, within the caps. */
  private take(): Part[] {
    const parts: Part[] = [];
    /** This request's whole questions by item: a second question of the same item rides on the first. */
    const byItem = new Map<string, Part>();
    let chars = 0;
    let json = REQUEST_JSON_BASE;
    const room = (text: string, size: number) => parts.length === 0 || (parts.length < MAX_FIND_ITEMS && chars + text.length <= MAX_FIND_CHARS && json + size <= MAX_FIND_BATCH);
    while (this.queue.length > 0) {
      const asked = this.queue[0]!;
      if (this.stale(asked)) {
        this.queue.shift();
        continue;
      }
      const long = asked.long;
      if (!long) {
        const key = asked.key!;
        // Answered since it was queued (the same text went in an earlier request).
        const known = this.known.get(key);
        if (known) {
          this.queue.shift();
          this.ready.push([asked, known]);
          continue;
        }
        const same = byItem.get(key);
        if (same) {
          this.queue.shift();
          (same.same ??= []).push(asked);
          continue;
        }
        const size = itemJsonLength(asked.item);
        if (!room(asked.item.text, size)) break;
        this.queue.shift();
        const part: Part = { asked, item: asked.item };
        byItem.set(key, part);
        parts.push(part);
        chars += asked.item.text.length;
        json += size;
        continue;
      }
      const slice = long.ready.shift() ?? this.nextSlice(asked);
      if (!slice) {
        // Every slice is out (or read): the question waits for their answers only.
        this.queue.shift();
        this.settleLongIfDone(asked);
        continue;
      }
      if (slice.answer) continue; // nothing to read in it
      const item: FindItem = { text: slice.text, countries: slice.countries, label: asked.item.label };
      const size = itemJsonLength(item);
      if (!room(slice.text, size)) {
        long.ready.unshift(slice);
        break;
      }
      long.out++;
      parts.push({ asked, item, slice });
      chars += slice.text.length;
      json += size;
    }
    return parts;
  }

  /** The long question's next slice, prepared now (null when its text is all sliced). */
  private nextSlice(asked: Asked): SliceRead | null {
    const long = asked.long!;
    const text = asked.item.text;
    if (long.next >= text.length) return null;
    let max = MAX_FIND_TEXT;
    let slice = sliceAt(text, long.next, max);
    // A text of escapes (quotes, control characters) is longer as JSON: a shorter slice then
    // (fitsWhole serialises only a slice that might not fit even so: take() measures each once).
    while (max > 1_000 && !fitsWhole({ ...asked.item, text: slice.text })) slice = sliceAt(text, long.next, (max >>= 1));
    long.next = slice.end;
    const prepared = this.host.prepareSlice(asked.question, slice.text);
    const read: SliceRead = { ...slice, countries: prepared?.countries ?? [null], context: prepared?.context ?? null, answer: null };
    if (!prepared || !fitsFindRequest({ countries: read.countries, label: asked.item.label })) read.answer = read.countries.map(() => []);
    long.slices.push(read);
    return read;
  }

  /** Settles a long question once all its slices are sliced and answered. */
  private settleLongIfDone(asked: Asked): boolean {
    const long = asked.long!;
    if (long.out > 0 || long.ready.length > 0 || long.next < asked.item.text.length) return false;
    if (this.stale(asked)) return true;
    this.latest.delete(asked.question.container);
    const { container } = asked.question;
    if (long.slices.every((s) => holdsNone(s.answer!))) {
      this.host.settleNone(container);
      return true;
    }
    if (!this.host.isLive(container) || changedSince(asked.question)) return true;
    this.host.settleSlices(asked.question, long.slices);
    return true;
  }

  private request(parts: Part[]): void {
    const items = parts.map((p) => p.item);
    this.outstanding++;
    const settle = (answers: FindAnswer[] | null) => {
      this.outstanding--;
      parts.forEach((part, i) => {
        const { asked } = part;
        const { container } = asked.question;
        const answer = answers ? answers[i]! : null;
        if (part.slice) {
          asked.long!.out--;
          if (!answer) {
            // A slice failed: the question is read here (if this scanner reads), whole.
            if (this.stale(asked)) return;
            this.latest.delete(container);
            return this.host.settle(asked.question, asked.item.countries, null);
          }
          part.slice.answer = answer;
          this.settleLongIfDone(asked);
          return;
        }
        if (answer) this.remember(asked.key!, answer);
        this.settleAsked(asked, answer);
        for (const other of part.same ?? []) this.settleAsked(other, answer);
      });
      this.host.answered();
      this.flush();
    };
    this.send(findRequest(items)).then(
      (reply) => {
        if (isFindBusy(reply)) return this.again(parts, reply.retryInMs);
        this.busyStreak = 0;
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

  /** The background's tab share was taken: the parts go back to the queue's head and are sent again in `ms`. */
  private again(parts: Part[], ms: number): void {
    this.outstanding--;
    const back: Asked[] = [];
    for (const part of parts) {
      if (part.slice) {
        const long = part.asked.long!;
        long.out--;
        long.ready.push(part.slice);
        if (!back.includes(part.asked) && !this.queue.includes(part.asked)) back.push(part.asked);
      } else back.push(part.asked, ...(part.same ?? []));
    }
    this.queue.unshift(...back);
    // At least what the background said, more after each busy answer in a row, a little apart from the other frames.
    const backoff = Math.min(MAX_BACKOFF_MS, BUSY_BACKOFF_MS * 2 ** this.busyStreak++);
    this.wait(Math.min(Math.max(ms, backoff), MAX_BACKOFF_MS) * (0.75 + Math.random() / 2));
  }
}

/** The first wait after a "busy" answer, doubled for each one after it, up to MAX_BACKOFF_MS. */
const BUSY_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 4_000;

/** A string's JSON length when every character is escaped (\uXXXX), quotes included. */
const atMost = (chars: number) => 6 * chars + 2;

/** Whether an item goes in a request as it is (else it is read in slices). */
function fitsWhole(item: FindItem): boolean {
  if (item.text.length > MAX_FIND_TEXT) return false;
  // Decided without serialising when even every character escaped (\uXXXX) would fit: every text up to
  // MAX_FIND_TEXT does, and asked for each of a list's cells, the three JSON.stringify calls showed in its profile.
  if (atMost(item.text.length) + atMost(item.label.length) + atMost(3 * item.countries.length) + 7 <= MAX_FIND_BATCH - REQUEST_JSON_BASE) return true;
  return itemJsonLength(item) <= MAX_FIND_BATCH - REQUEST_JSON_BASE;
}

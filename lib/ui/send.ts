/**
 * The UI's one way to ask the background for anything: a typed wrapper around
 * `browser.runtime.sendMessage`. It never throws: a missing background, a thrown error or an
 * unexpected answer all come back as `{ok: false, error}` with a sentence a person can read.
 */
import { browser } from '../browser';
import type { Reply, ReplyData, ReplyOf, RequestOf, UiRequestType } from '../messages';
import type { ExecutionLogEntry } from '../api/schemas/execution';

export type { ReplyData, ReplyOf, RequestOf } from '../messages';

/** Fails to compile when lib/messages.ts gains a request that ReplyData does not describe. */
type Missing = Exclude<UiRequestType, keyof ReplyData>;
const everyRequestHasAReply: [Missing] extends [never] ? true : Missing = true;
void everyRequestHasAReply;

function isReply(value: unknown): value is Reply<unknown> {
  if (!value || typeof value !== 'object') return false;
  const v = value as { ok?: unknown; error?: unknown };
  if (v.ok === true) return true;
  return v.ok === false && !!v.error && typeof (v.error as { message?: unknown }).message === 'string';
}

export async function send<T extends UiRequestType>(request: RequestOf<T>): Promise<Reply<ReplyOf<T>>> {
  try {
    const answer: unknown = await browser.runtime.sendMessage(request);
    if (isReply(answer)) return answer as Reply<ReplyOf<T>>;
    return {
      ok: false,
      error: { message: 'The extension’s background did not answer. Close this window and try again.', kind: 'no-answer' },
    };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: { message: `The extension’s background could not be reached (${text}). Close this window and try again.`, kind: 'no-background' },
    };
  }
}

/** Entries of an `execution/log` answer, whichever of the two shapes it came in. */
export function logEntries(data: ReplyData['execution/log'] | null | undefined): ExecutionLogEntry[] {
  if (!data) return [];
  if (Array.isArray(data)) return data;
  return Array.isArray(data.data) ? data.data : [];
}

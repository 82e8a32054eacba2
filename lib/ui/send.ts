/**
 * The UI's one way to ask the background for anything: a typed wrapper around
 * `browser.runtime.sendMessage`. It never throws: a missing background, a thrown error or an
 * unexpected answer all come back as `{ok: false, error}` with a sentence a person can read.
 */
import { browser } from '../browser';
import type {
  AgentsView,
  ConnectionReport,
  OwnedNumber,
  Reply,
  SettingsView,
  TabNumbersView,
  UiRequest,
  UiRequestType,
} from '../messages';
import type { Execution, ExecutionLogEntry, ExecutionPage } from '../api/schemas/execution';

/** What each request answers. Where the contract leaves the shape open the UI reads it leniently. */
export interface ReplyData {
  'settings/get': SettingsView;
  'settings/save': SettingsView;
  'settings/remove-key': SettingsView;
  'sites/update': SettingsView;
  'connection/test': ConnectionReport;
  'agents/list': AgentsView;
  'agents/add-by-id': unknown;
  'agents/remove': unknown;
  'phone-numbers/list': OwnedNumber[];
  'call/dial': { callId: string };
  'call/stop': unknown;
  'call/retry': unknown;
  'call/forget': unknown;
  'execution/get': Execution;
  /** The log as entries, or the service's `{data: entries}`: see `logEntries`. */
  'execution/log': ExecutionLogEntry[] | { data: ExecutionLogEntry[] };
  'agent/executions': ExecutionPage;
  'panel/open': unknown;
  'page/numbers-for-tab': TabNumbersView;
  'phone/parse': import('../phone/normalize').PhoneInputResult;
}

export type RequestOf<T extends UiRequestType> = Extract<UiRequest, { type: T }>;
export type ReplyOf<T extends UiRequestType> = T extends keyof ReplyData ? ReplyData[T] : never;

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

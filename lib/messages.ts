/**
 * Messages from extension pages (popup, side panel, options) to the background. One schema per
 * message; the background parses every payload with `uiRequest` (strict: unknown keys refused) after
 * checking the sender. Answers are `Reply<T>`: data, or an error a person can read.
 */
import type { Execution, ExecutionLogEntry } from './api/schemas/execution';
import { z } from './zod';
import type { PhoneInputResult } from './phone/normalize';
import { accountRequests, type AccountReplies } from './requests/account';
import { agentsRequests, type AgentReplies, type AgentsView } from './requests/agents';

export type { AgentSummary, AgentsView } from './requests/agents';
import { batchesRequests, type BatchReplies } from './requests/batches';
import { country, e164, id } from './requests/common';
import { executionsRequests, type ExecutionReplies } from './requests/executions';
import { knowledgebasesRequests, type KnowledgebaseReplies } from './requests/knowledgebases';
import { numbersRequests, type NumberReplies } from './requests/numbers';
import { plansRequests, type PlanReplies } from './requests/plans';
import { widgetRequests, type WidgetReplies } from './requests/widget';

export const uiRequest = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('settings/get') }),
  z.strictObject({
    type: z.literal('settings/save'),
    baseUrl: z.string().max(2048),
    defaultCountry: country,
    rememberKey: z.boolean(),
    /** Absent: keep the key saved for the base URL's origin. */
    apiKey: z.string().max(4096).optional(),
    /** The person confirmed moving the key saved for this origin to the base URL's origin. */
    moveKeyFrom: z.string().max(2048).optional(),
  }),
  /** Removes the key of the saved base URL's origin, or of `origin`. */
  z.strictObject({ type: z.literal('settings/remove-key'), origin: z.string().max(2048).optional() }),
  z.strictObject({
    type: z.literal('sites/update'),
    /** Click-to-call on pages on or off; UI sends `true` only after the browser granted the rules' origins. */
    on: z.boolean().optional(),
    mode: z.enum(['everywhere', 'only-listed', 'except-listed']).optional(),
    listed: z.array(z.string().max(253)).max(500).optional(),
    pause: z.string().max(253).optional(),
    resume: z.string().max(253).optional(),
    /** The default country for numbers on one site ('' removes the site's own). */
    country: z.strictObject({ host: z.string().min(1).max(253), country: z.string().regex(/^(?:[A-Z]{2})?$/) }).optional(),
  }),
  /** Start calls at once with `POST /call` where the service offers it (else the single-call batch). */
  z.strictObject({ type: z.literal('settings/call-route'), startCallsNow: z.boolean() }),
  /** Tests the stored settings, or the given ones before saving. */
  z.strictObject({ type: z.literal('connection/test'), baseUrl: z.string().max(2048).optional(), apiKey: z.string().max(4096).optional() }),
  z.strictObject({ type: z.literal('agents/list'), refresh: z.boolean() }),
  z.strictObject({ type: z.literal('agents/add-by-id'), agentId: id }),
  z.strictObject({ type: z.literal('agents/remove'), agentId: id }),
  z.strictObject({ type: z.literal('phone-numbers/list') }),
  z.strictObject({
    type: z.literal('call/dial'),
    /** Chosen by the UI when the user confirms: the same id sent twice is the same call. */
    dialId: id,
    /** The user was told a call to this number is in progress and chose to call again. */
    again: z.boolean().optional(),
    agentId: id,
    toNumber: e164,
    fromNumber: e164.nullable(),
    variables: z.record(z.string().max(64), z.string().max(2000)).refine((v) => Object.keys(v).length <= 50, 'at most 50 variables'),
  }),
  z.strictObject({ type: z.literal('call/stop'), callId: id }),
  z.strictObject({ type: z.literal('call/retry'), callId: id }),
  z.strictObject({ type: z.literal('call/forget'), callId: id }),
  z.strictObject({ type: z.literal('execution/get'), executionId: id }),
  z.strictObject({ type: z.literal('execution/log'), executionId: id }),
  z.strictObject({ type: z.literal('panel/open'), callId: id.optional() }),
  /** Checks a typed number (libphonenumber-js runs in the background to keep the popup small). */
  z.strictObject({ type: z.literal('phone/parse'), text: z.string().max(256), country }),
  /** Numbers found in a tab (the active one when tabId is absent), for the popup's "On this page". */
  z.strictObject({ type: z.literal('page/numbers-for-tab'), tabId: z.number().int().nonnegative().optional() }),
  // Each side panel feature's own requests (lib/requests/<feature>.ts), answered by lib/background/handlers/.
  ...agentsRequests,
  ...batchesRequests,
  ...executionsRequests,
  ...numbersRequests,
  ...knowledgebasesRequests,
  ...accountRequests,
  ...plansRequests,
  ...widgetRequests,
]);
export type UiRequest = z.infer<typeof uiRequest>;
export type UiRequestType = UiRequest['type'];
export type RequestOf<T extends UiRequestType> = Extract<UiRequest, { type: T }>;

export interface ReplyError {
  message: string;
  status?: number;
  /** What went wrong, for UI that explains it (e.g. 'auth', 'network', 'validation'). */
  kind?: string;
}
export type Reply<T> = { ok: true; data: T } | { ok: false; error: ReplyError };

export { MAX_MESSAGE_BYTES, messageSize } from './message-size';

// ---- What each request answers (the `data` of a successful Reply) ----

export interface SettingsView {
  baseUrl: string;
  defaultCountry: string;
  rememberKey: boolean;
  hasKey: boolean;
  /** Masked, e.g. `••••••••wner`; null when there is no key. */
  keyHint: string | null;
  /** The origin the key is for (the base URL's); null when there is no key. */
  keyOrigin: string | null;
  /** Other origins that have a key saved (calls placed there are followed with it). */
  otherKeyOrigins: string[];
  sites: { on: boolean; mode: 'everywhere' | 'only-listed' | 'except-listed'; listed: string[]; paused: string[]; countries: Record<string, string> };
  /** Calls start at once with `POST /call` where the service offers it. */
  startCallsNow: boolean;
  /** Why stored settings were reset to defaults, if they were. */
  problem: string | null;
}

export type ConnectionOutcome =
  | 'ok'
  | 'no-key'
  | 'key-refused-401'
  | 'key-refused-403'
  | 'unreachable'
  | 'not-https'
  | 'bad-url'
  | 'permission-refused'
  | 'cors'
  | 'timeout'
  | 'unexpected';

export interface ConnectionReport {
  ok: boolean;
  outcome: ConnectionOutcome;
  /** A sentence a person understands: what happened and what to do. */
  message: string;
  /** Account name or e-mail when the key works. */
  account?: string;
}



export interface OwnedNumber {
  id: string;
  phoneNumber: string;
  agentId: string | null;
}

export interface TabNumbersView {
  tabId: number | null;
  /** Host of the tab's page, for "Pause on this site". */
  host: string;
  numbers: { raw: string; e164: string }[];
  /** How many different numbers the tab holds; more than `numbers` when the frames' reports were capped. */
  total: number;
  /** The country national-format numbers on this host are read with (the site's own, else the default). */
  country: string;
  /** The site's own default country, if one is set for exactly this host. */
  siteCountry: string | null;
  /** Click-to-call is on for this host under the current site rules. */
  enabled: boolean;
  /** Click-to-call on pages is switched on at all (Options → Sites); absent from older backgrounds. */
  pagesOn?: boolean;
}

/** What each request answers. Where the contract leaves the shape open the UI reads it leniently. */
export interface ReplyData extends AgentReplies, BatchReplies, ExecutionReplies, NumberReplies, KnowledgebaseReplies, AccountReplies, PlanReplies, WidgetReplies {
  'settings/get': SettingsView;
  'settings/save': SettingsView;
  'settings/remove-key': SettingsView;
  'sites/update': SettingsView;
  'settings/call-route': SettingsView;
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
  'panel/open': unknown;
  'page/numbers-for-tab': TabNumbersView;
  'phone/parse': PhoneInputResult;
}
export type ReplyOf<T extends UiRequestType> = T extends keyof ReplyData ? ReplyData[T] : never;

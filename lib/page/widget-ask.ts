/**
 * The content script's strict check of an element's message (no zod here: every page of a
 * switched-on site loads the content script, so it stays small; the background parses the forwarded
 * request again with the zod schema, lib/page/widget-messages.ts, and tests/unit/widget/bridge.test.ts
 * holds the two to the same answers).
 */
export const WIDGET_CHANNEL = 'voice-agent-call/v1';

const E164 = /^\+[1-9]\d{1,14}$/;
const ID = /^[A-Za-z0-9_-]{1,128}$/;
const NONCE = /^[A-Za-z0-9_-]{8,64}$/;

export interface WidgetPlaceAsk {
  agentId: string;
  toNumber: string;
  variables: Record<string, string>;
  via: 'call' | 'batch';
  transcripts: boolean;
}

export type WidgetAskMessage =
  | { nonce: string; kind: 'hello' }
  | { nonce: string; kind: 'place'; request: WidgetPlaceAsk }
  | { nonce: string; kind: 'read' | 'stop'; id: string };

/**
 * A plain object of any realm: its prototype is an Object.prototype (whose own prototype is null).
 * Not `=== Object.prototype`: Firefox hands a content script the page's message through an Xray
 * wrapper whose prototype is the page's Object.prototype, so that test dropped every ask there.
 * Arrays, dates and class instances still fail (their prototype has a prototype).
 */
const plain = (value: unknown): value is Record<string, unknown> => {
  if (!value || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto !== null && Object.getPrototypeOf(proto) === null;
};
const onlyKeys = (value: Record<string, unknown>, keys: string[]) => Object.keys(value).every((k) => keys.includes(k));

function placeRequest(value: unknown): WidgetPlaceAsk | null {
  if (!plain(value) || !onlyKeys(value, ['agentId', 'toNumber', 'variables', 'via', 'transcripts'])) return null;
  const { agentId, toNumber, variables, via, transcripts } = value;
  if (typeof agentId !== 'string' || !ID.test(agentId) || typeof toNumber !== 'string' || !E164.test(toNumber)) return null;
  if (via !== 'call' && via !== 'batch') return null;
  if (typeof transcripts !== 'boolean' || !plain(variables)) return null;
  const entries = Object.entries(variables);
  if (entries.length > 32 || !entries.every(([k, v]) => k.length >= 1 && k.length <= 64 && typeof v === 'string' && v.length <= 2_000)) return null;
  return { agentId, toNumber, variables: Object.fromEntries(entries) as Record<string, string>, via, transcripts };
}

/** The element's message, or null for anything else (wrong channel, extra keys, bad values). */
export function parseWidgetAsk(data: unknown): WidgetAskMessage | null {
  if (!plain(data) || data.channel !== WIDGET_CHANNEL || data.dir !== 'ask') return null;
  const { nonce, kind } = data;
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) return null;
  const base = ['channel', 'dir', 'nonce', 'kind'];
  if (kind === 'hello') return onlyKeys(data, base) ? { nonce, kind } : null;
  if (kind === 'place') {
    const request = onlyKeys(data, [...base, 'request']) ? placeRequest(data.request) : null;
    return request ? { nonce, kind, request } : null;
  }
  if ((kind === 'read' || kind === 'stop') && onlyKeys(data, [...base, 'id']) && typeof data.id === 'string' && ID.test(data.id)) return { nonce, kind, id: data.id };
  return null;
}

/**
 * What a `<voice-agent-call>` element's attributes ask for, read once per change (pure: the element
 * passes its getAttribute). Bad input is refused with a reason the element shows; a key attribute
 * stops the element before anything is sent: a key never belongs in a page.
 */
import { checkVariables } from './check';
import type { WidgetVia } from './wire';

const WIDGET_VIA: readonly WidgetVia[] = ['call', 'batch'];

/** Attribute names that would put a key in the page. */
export const KEY_ATTRIBUTES = ['key', 'api-key', 'apikey', 'api_key', 'token-key', 'secret'] as const;

export const OBSERVED_ATTRIBUTES = ['agent', 'agent-name', 'number', 'variables', 'via', 'transcripts', 'free-dial', 'transport', 'proxy', 'token', ...KEY_ATTRIBUTES] as const;

export type WidgetRoute = { kind: 'extension' } | { kind: 'proxy'; url: string; token: string };

export interface WidgetConfig {
  agentId: string;
  /** The host page's name for the agent, shown instead of its id (display only: the extension's confirmation names the agent from the tester's own list). */
  agentName: string;
  /** The host page's number ('' when it gave none: then only free dialling can call). */
  number: string;
  variables: Record<string, string>;
  via: WidgetVia;
  showTranscripts: boolean;
  /** The number may be typed in the widget (explicit opt-in); by default it is the page's and locked. */
  freeDial: boolean;
  route: WidgetRoute;
}

export type AttributeProblem = { code: 'key-attribute' | 'bad-variables' | 'bad-agent' | 'bad-via' | 'bad-transport'; detail: string };

export type ReadAttributes = { ok: true; config: WidgetConfig } | { ok: false; problem: AttributeProblem };

const AGENT = /^[A-Za-z0-9_-]{1,128}$/;

export function readAttributes(get: (name: string) => string | null): ReadAttributes {
  const keyName = KEY_ATTRIBUTES.find((name) => get(name) !== null);
  if (keyName) return { ok: false, problem: { code: 'key-attribute', detail: keyName } };

  const agentId = (get('agent') ?? '').trim();
  if (!AGENT.test(agentId)) return { ok: false, problem: { code: 'bad-agent', detail: agentId.slice(0, 40) } };

  let variables: Record<string, string> = {};
  const rawVariables = get('variables');
  if (rawVariables !== null && rawVariables.trim() !== '') {
    let value: unknown;
    try {
      value = JSON.parse(rawVariables);
    } catch (error) {
      return { ok: false, problem: { code: 'bad-variables', detail: error instanceof Error ? error.message : String(error) } };
    }
    const checked = checkVariables(value);
    if (!checked.ok) return { ok: false, problem: { code: 'bad-variables', detail: checked.error } };
    variables = checked.variables;
  }

  const via = (get('via') ?? 'batch').trim() || 'batch';
  if (!(WIDGET_VIA as readonly string[]).includes(via)) return { ok: false, problem: { code: 'bad-via', detail: via.slice(0, 40) } };

  const proxy = get('proxy');
  const transport = (get('transport') ?? '').trim();
  let route: WidgetRoute = { kind: 'extension' };
  if (proxy !== null || (transport && transport !== 'extension')) {
    const url = (proxy ?? transport).trim();
    let parsedUrl: URL | null = null;
    try {
      parsedUrl = new URL(url);
    } catch {
      parsedUrl = null;
    }
    // Plain http only for loopback: a token must not cross the network in the clear.
    const loopback = parsedUrl && /^(?:localhost|127\.0\.0\.1|\[::1\])$/.test(parsedUrl.hostname);
    if (!parsedUrl || !(parsedUrl.protocol === 'https:' || (parsedUrl.protocol === 'http:' && loopback))) {
      return { ok: false, problem: { code: 'bad-transport', detail: url.slice(0, 80) } };
    }
    route = { kind: 'proxy', url: parsedUrl.href.replace(/\/$/, ''), token: (get('token') ?? '').trim() };
  }

  return {
    ok: true,
    config: {
      agentId,
      // One line of text at most 80 characters; control characters and runs of white space as one space.
      agentName: (get('agent-name') ?? '').replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 80),
      number: (get('number') ?? '').trim().slice(0, 64),
      variables,
      via: via as WidgetVia,
      showTranscripts: (get('transcripts') ?? 'show').trim() !== 'hide',
      freeDial: get('free-dial') !== null && get('free-dial') !== 'false',
      route,
    },
  };
}

/** A typed or given number as E.164 (spaces, dots, dashes and brackets dropped), or null. */
export function e164Of(text: string): string | null {
  const compact = text.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{1,14}$/.test(compact) ? compact : null;
}

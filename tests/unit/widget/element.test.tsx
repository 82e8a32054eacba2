// @vitest-environment happy-dom
/**
 * `<voice-agent-call>` in a DOM: what it shows, what it sends (through a fake transport registered as
 * the proxy's), what it refuses, and the events a host page hears.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defineVoiceAgentCall } from '../../../components/widget/element';
import { registerProxyTransport } from '../../../lib/widget/transports';
import type { WidgetCallRequest, WidgetCallView, WidgetTransport } from '../../../lib/widget/wire';

function view(over: Partial<WidgetCallView>): WidgetCallView {
  return {
    id: 'call-1', agentId: 'agent-1', toNumber: '+14155550123', via: 'batch', executionId: null, status: null, observed: [],
    done: false, message: null, stopRequested: false, durationSeconds: null, cost: null, transcript: null, recordingUrl: null, extractedData: null,
    ...over,
  };
}

const finished = view({
  executionId: 'exec-1', status: 'completed', done: true, durationSeconds: 42, cost: 0.12,
  observed: [{ status: 'queued', at: 1 }, { status: 'completed', at: 2 }],
  transcript: 'assistant: <img src=x onerror=alert(1)>Hello\nuser: Hi', recordingUrl: 'https://rec.example/1.mp3', extractedData: { intent: 'book' },
});

function fakeTransport(reads: WidgetCallView[] = [finished]) {
  const placed: WidgetCallRequest[] = [];
  const stopped: string[] = [];
  const transport: WidgetTransport = {
    place: vi.fn(async (request: WidgetCallRequest) => {
      placed.push(request);
      return view({ status: 'queued', observed: [{ status: 'queued', at: 1 }], toNumber: request.toNumber });
    }),
    read: vi.fn(async () => reads.shift() ?? finished),
    stop: vi.fn(async (id: string) => {
      stopped.push(id);
      return view({ stopRequested: true, status: 'queued' });
    }),
  };
  return { transport, placed, stopped };
}

beforeAll(() => defineVoiceAgentCall());
afterEach(() => {
  document.body.innerHTML = '';
  registerProxyTransport(null);
});

function mount(attributes: Record<string, string>): HTMLElement {
  const element = document.createElement('voice-agent-call');
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  return element;
}
const root = (el: HTMLElement) => el.shadowRoot!;
const text = (el: HTMLElement) => root(el).querySelector('section')?.textContent ?? '';
const button = (el: HTMLElement, name: string) => [...root(el).querySelectorAll('button')].find((b) => b.textContent?.trim() === name) as HTMLButtonElement | undefined;
const PROXY = { proxy: 'https://proxy.example', token: 'widget-token' };

describe('<voice-agent-call>', () => {
  it('shows the agent and the page’s number, locked; Call places the call with them and the events carry ids, status, duration and cost only', async () => {
    const { transport, placed } = fakeTransport();
    registerProxyTransport(() => transport);
    const events: { type: string; detail: unknown; composed: boolean; bubbles: boolean }[] = [];
    for (const type of ['voice-agent-call:status', 'voice-agent-call:done', 'voice-agent-call:error']) {
      document.addEventListener(type, (e) => events.push({ type, detail: (e as CustomEvent).detail, composed: e.composed, bubbles: e.bubbles }));
    }
    const el = mount({ agent: 'agent-1', number: '+1 415 555 0123', variables: '{"name":"Ada"}', via: 'call', ...PROXY });
    expect(text(el)).toContain('Agent: agent-1');
    expect(text(el)).toContain('Number: +1 415 555 0123 (set by this page)');
    // Locked: no field to type another number into.
    expect(root(el).querySelector('input')).toBeNull();

    button(el, 'Call')!.click();
    await vi.waitFor(() => expect(events.some((e) => e.type === 'voice-agent-call:done')).toBe(true), { timeout: 5000 });
    expect(placed).toEqual([{ agentId: 'agent-1', toNumber: '+14155550123', variables: { name: 'Ada' }, via: 'call' }]);
    expect(events.map((e) => e.type)).toEqual(['voice-agent-call:status', 'voice-agent-call:status', 'voice-agent-call:done']);
    expect(events.every((e) => e.composed && e.bubbles)).toBe(true);
    expect(events.at(-1)!.detail).toEqual({ id: 'call-1', executionId: 'exec-1', status: 'completed', durationSeconds: 42, cost: 0.12 });
    expect(JSON.stringify(events)).not.toContain('widget-token');

    // Results: the transcript as text (the service's markup is not markup here), the recording, the extracted data.
    await vi.waitFor(() => expect(text(el)).toContain('Talk time: 42 s'));
    expect(root(el).querySelector('img')).toBeNull();
    expect(text(el)).toContain('<img src=x onerror=alert(1)>Hello');
    expect(root(el).querySelector('audio')?.getAttribute('src')).toBe('https://rec.example/1.mp3');
    expect(text(el)).toContain('intent');
    expect(button(el, 'Call again')).toBeTruthy();
  });

  it('with transcripts="hide" shows no transcript or recording even when the service sent them', async () => {
    const { transport } = fakeTransport();
    registerProxyTransport(() => transport);
    const el = mount({ agent: 'agent-1', number: '+14155550123', transcripts: 'hide', ...PROXY });
    button(el, 'Call')!.click();
    await vi.waitFor(() => expect(text(el)).toContain('Talk time: 42 s'), { timeout: 5000 });
    expect(text(el)).not.toContain('Hello');
    expect(root(el).querySelector('audio')).toBeNull();
  });

  it('shows the host page’s name for the agent as one line of text, and still places the call by the agent’s id', async () => {
    const { transport, placed } = fakeTransport();
    registerProxyTransport(() => transport);
    const el = mount({ agent: 'agent-1', 'agent-name': '  <b>Sales</b>\n\tfollow-up  ', number: '+14155550123', ...PROXY });
    expect(text(el)).toContain('Agent: <b>Sales</b> follow-up');
    expect(root(el).querySelector('b')).toBeNull();
    expect(text(el)).not.toContain('agent-1');
    el.setAttribute('agent-name', 'x'.repeat(200));
    await vi.waitFor(() => expect(text(el)).toContain(`Agent: ${'x'.repeat(80)}`));
    expect(text(el)).not.toContain('x'.repeat(81));
    button(el, 'Call')!.click();
    await vi.waitFor(() => expect(placed).toHaveLength(1), { timeout: 5000 });
    expect(placed[0]).toMatchObject({ agentId: 'agent-1' });
  });

  it('refuses a key attribute with a clear message and sends nothing', async () => {
    for (const name of ['key', 'api-key', 'apikey']) {
      const { transport } = fakeTransport();
      registerProxyTransport(() => transport);
      const errors: unknown[] = [];
      document.addEventListener('voice-agent-call:error', (e) => errors.push((e as CustomEvent).detail), { once: true });
      const el = mount({ agent: 'agent-1', number: '+14155550123', [name]: 'sk-secret-123', ...PROXY });
      expect(text(el)).toContain(`This widget was given a key (the ${name} attribute)`);
      expect(button(el, 'Call')).toBeUndefined();
      expect(transport.place).not.toHaveBeenCalled();
      expect(JSON.stringify(errors)).not.toContain('sk-secret-123');
      expect(errors).toHaveLength(1);
      el.remove();
    }
  });

  it('says plainly when the variables are not JSON, and offers no Call', () => {
    registerProxyTransport(() => fakeTransport().transport);
    const el = mount({ agent: 'agent-1', number: '+14155550123', variables: '{name: Ada}', ...PROXY });
    expect(text(el)).toMatch(/The variables attribute must be JSON of names and texts, like \{"name":"Ada"\}: .+/);
    expect(button(el, 'Call')).toBeUndefined();
    // Fixed by the host: the widget works again.
    el.setAttribute('variables', '{"name":"Ada"}');
    expect(button(el, 'Call')).toBeTruthy();
  });

  it('free-dial (explicit) lets the tester type the number; a bad one is refused and kept', async () => {
    const { transport, placed } = fakeTransport();
    registerProxyTransport(() => transport);
    const el = mount({ agent: 'agent-1', number: '+14155550123', 'free-dial': '', ...PROXY });
    const input = () => root(el).querySelector('input')!;
    expect(input().value).toBe('+14155550123');
    expect(root(el).querySelector(`label[for="${input().id}"]`)?.textContent).toBe('Number');
    const type = (value: string) => {
      input().value = value;
      input().dispatchEvent(new Event('input', { bubbles: true }));
    };
    type('555-01');
    button(el, 'Call')!.click();
    await vi.waitFor(() => expect(text(el)).toContain('Not a phone number in international form (+ and the country code): 555-01'));
    expect(input().value).toBe('555-01');
    expect(placed).toHaveLength(0);
    type('+44 20 7946 0133');
    button(el, 'Call')!.click();
    await vi.waitFor(() => expect(placed.map((p) => p.toNumber)).toEqual(['+442079460133']));
  });

  it('locked (the default): the page’s number is the one called, and a bad one says so without calling', async () => {
    const { transport, placed } = fakeTransport();
    registerProxyTransport(() => transport);
    const el = mount({ agent: 'agent-1', number: 'call reception', ...PROXY });
    button(el, 'Call')!.click();
    await vi.waitFor(() => expect(text(el)).toContain('Not a phone number in international form (+ and the country code): call reception'));
    expect(placed).toHaveLength(0);
  });

  it('a refused call says why in the widget and in a :error event with the transport’s code', async () => {
    const refusing: WidgetTransport = {
      place: async () => {
        throw Object.assign(new Error('This token has expired: ask the page for a new one.'), { code: 'token-expired' });
      },
      read: async () => finished,
      stop: async () => finished,
    };
    registerProxyTransport(() => refusing);
    const errors: { message?: string; code?: string }[] = [];
    document.addEventListener('voice-agent-call:error', (e) => errors.push((e as CustomEvent).detail), { once: true });
    const el = mount({ agent: 'agent-1', number: '+14155550123', ...PROXY });
    button(el, 'Call')!.click();
    await vi.waitFor(() => expect(text(el)).toContain('This token has expired: ask the page for a new one.'));
    expect(errors).toEqual([expect.objectContaining({ code: 'token-expired', message: 'This token has expired: ask the page for a new one.', id: null })]);
    expect(button(el, 'Call')).toBeTruthy();
  });

  it('Stop stops the call by its id while it runs', async () => {
    const running = view({ status: 'in-progress', observed: [{ status: 'in-progress', at: 1 }] });
    const { transport, stopped } = fakeTransport([running, running, running, running]);
    registerProxyTransport(() => transport);
    const el = mount({ agent: 'agent-1', number: '+14155550123', ...PROXY });
    button(el, 'Call')!.click();
    await vi.waitFor(() => expect(button(el, 'Stop call')).toBeTruthy());
    button(el, 'Stop call')!.click();
    await vi.waitFor(() => expect(stopped).toEqual(['call-1']));
    await vi.waitFor(() => expect(button(el, 'Stop call')?.disabled).toBe(true));
  });

  it('is defined once (a second script load is harmless) and upgrades elements added later', () => {
    expect(() => defineVoiceAgentCall()).not.toThrow();
    registerProxyTransport(() => fakeTransport().transport);
    const later = document.createElement('div');
    later.innerHTML = '<voice-agent-call agent="agent-2" number="+14155550199" proxy="https://proxy.example" token="t"></voice-agent-call>';
    document.body.append(later);
    const el = later.firstElementChild as HTMLElement;
    expect(el.shadowRoot).not.toBeNull();
    expect(text(el)).toContain('Agent: agent-2');
  });

  it('the proxy way without a token, or without a proxy transport in this build, says so', () => {
    const noToken = mount({ agent: 'agent-1', number: '+14155550123', proxy: 'https://proxy.example' });
    expect(text(noToken)).toContain('needs a token attribute');
    const noTransport = mount({ agent: 'agent-1', number: '+14155550123', ...PROXY });
    expect(text(noTransport)).toContain('cannot reach a proxy');
    // Registered later (a late script): the element picks it up.
    registerProxyTransport(() => fakeTransport().transport);
    expect(button(noTransport, 'Call')).toBeTruthy();
  });
});

// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readConfig, runContentScript, selectedText, type ContentBrowser } from '../../../lib/page/content';
import { OVERLAY_TAG } from '../../../lib/page/overlay';

const EXTENSION_ID = 'our-extension-id';

/** The slice of the extension API the content script uses, with a scripted background. */
function fakeExtension(config: () => unknown) {
  const sent: { type: string; [k: string]: unknown }[] = [];
  const changeListeners: ((changes: Record<string, unknown>, area: string) => void)[] = [];
  const messageListeners: ((m: unknown, s: { id?: string }, r: (a: unknown) => void) => unknown)[] = [];
  const browser: ContentBrowser = {
    runtime: {
      id: EXTENSION_ID,
      sendMessage: async (message) => {
        sent.push(message as never);
        return (message as { type: string }).type === 'page/config' ? config() : null;
      },
      onMessage: { addListener: (cb) => void messageListeners.push(cb) },
    },
    storage: { onChanged: { addListener: (cb) => void changeListeners.push(cb) } },
  };
  return {
    browser,
    sent,
    change: (key: string, area = 'local') => changeListeners.forEach((cb) => cb({ [key]: { newValue: {} } }, area)),
    /** What the content script answers the background (or another sender). */
    ask: (message: unknown, senderId = EXTENSION_ID) => {
      let answer: unknown;
      messageListeners.forEach((cb) => cb(message, { id: senderId }, (a) => (answer = a)));
      return answer;
    },
  };
}

const ON = { enabled: true, defaultCountry: 'US', agentName: 'Sales outreach' };
let stop: (() => void) | null = null;

afterEach(() => {
  stop?.();
  stop = null;
  document.body.innerHTML = '';
  document.querySelectorAll(OVERLAY_TAG).forEach((e) => e.remove());
  window.getSelection()?.removeAllRanges();
});

describe('readConfig', () => {
  it('accepts the background’s answer and refuses anything else', () => {
    expect(readConfig(ON)).toEqual(ON);
    expect(readConfig({ enabled: true, defaultCountry: 'GB', agentName: '  ' })).toEqual({ enabled: true, defaultCountry: 'GB', agentName: null });
    expect(readConfig(null)).toBeNull();
    expect(readConfig({ enabled: 'yes', defaultCountry: 'US' })).toBeNull();
    expect(readConfig({ ok: false, error: { message: 'x' } })).toBeNull();
  });
});

describe('runContentScript', () => {
  it('does nothing on a disabled site: no scan, no report', async () => {
    document.body.innerHTML = '<p>(415) 555-0132</p>';
    const ext = fakeExtension(() => ({ ...ON, enabled: false }));
    const script = runContentScript(ext.browser);
    stop = script.stop;
    await vi.waitFor(() => expect(ext.sent.map((m) => m.type)).toEqual(['page/config']));
    await new Promise((r) => setTimeout(r, 300));
    expect(script.current()).toBeNull();
    expect(ext.sent.map((m) => m.type)).toEqual(['page/config']);
  });

  it('starts when enabled, and stops (clearing its report) when settings turn it off', async () => {
    document.body.innerHTML = '<p>(415) 555-0132</p>';
    let config = ON;
    const ext = fakeExtension(() => config);
    const script = runContentScript(ext.browser);
    stop = script.stop;
    await vi.waitFor(() => expect(ext.sent.filter((m) => m.type === 'page/numbers')).toHaveLength(1));

    config = { ...ON, enabled: false };
    ext.change('ui.keyHint'); // unrelated keys do not make it ask
    ext.change('settings', 'sync');
    expect(ext.sent.filter((m) => m.type === 'page/config')).toHaveLength(1);
    ext.change('settings');
    await vi.waitFor(() => expect(script.current()).toBeNull());
    await vi.waitFor(() => expect(ext.sent.at(-1)).toEqual({ type: 'page/numbers', numbers: [], total: 0 }));

    config = ON;
    ext.change('settings');
    await vi.waitFor(() => expect(script.current()).not.toBeNull());
  });

  it('keeps its scan when only the agent name changes, and restarts for a new country', async () => {
    document.body.innerHTML = '<p>020 7946 0958</p>';
    let config = ON;
    const ext = fakeExtension(() => config);
    const script = runContentScript(ext.browser);
    stop = script.stop;
    await vi.waitFor(() => expect(script.current()).not.toBeNull());
    const first = script.current();
    config = { ...ON, agentName: 'Reminder' };
    ext.change('agents.cache');
    await new Promise((r) => setTimeout(r, 50));
    expect(script.current()).toBe(first);
    config = { ...ON, defaultCountry: 'GB' };
    ext.change('settings');
    await vi.waitFor(() => expect(script.current()).not.toBe(first));
    await vi.waitFor(() => expect(ext.sent.filter((m) => m.type === 'page/numbers').at(-1)).toEqual({
      type: 'page/numbers',
      numbers: [{ raw: '020 7946 0958', e164: '+442079460958' }],
      total: 1,
    }));
  });

  it('answers the background’s selection request, and nobody else’s', async () => {
    document.body.innerHTML = '<p id="p">Call 415 555 0132 now</p>';
    const ext = fakeExtension(() => ON);
    stop = runContentScript(ext.browser).stop;
    const text = document.getElementById('p')!.firstChild!;
    const range = document.createRange();
    range.setStart(text, 5);
    range.setEnd(text, 17);
    window.getSelection()!.addRange(range);
    expect(ext.ask({ type: 'page/selection' })).toBe('415 555 0132');
    expect(ext.ask({ type: 'page/selection' }, 'another-extension')).toBeUndefined();
    expect(ext.ask({ type: 'page/call' })).toBeUndefined();
  });
});

describe('selectedText', () => {
  it('reads a text field’s selection but never a password', () => {
    document.body.innerHTML = '<input id="t" value="x 212-555-0147 y"><input id="p" type="password" value="4155550132">';
    const t = document.getElementById('t') as HTMLInputElement;
    t.focus();
    t.setSelectionRange(2, 14);
    expect(selectedText()).toBe('212-555-0147');
    const p = document.getElementById('p') as HTMLInputElement;
    p.focus();
    p.setSelectionRange(0, 10);
    expect(selectedText()).toBe('');
  });
});

// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startClickToCall } from '../../../lib/page/click-to-call';
import { readConfig, runContentScript, selectedText, type ContentBrowser, type StartClickToCall } from '../../../lib/page/content';
import { OVERLAY_SELECTOR, overlayRoot } from '../../../lib/page/overlay';
import { answerFind } from '../helpers/background-finder';

const EXTENSION_ID = 'our-extension-id';

/** The slice of the extension API the content script uses, with a scripted background. */
function fakeExtension(config: () => unknown) {
  const sent: { type: string; [k: string]: unknown }[] = [];
  const answers: Promise<unknown>[] = [];
  const messageListeners: ((m: unknown, s: { id?: string }, r: (a: unknown) => void) => unknown)[] = [];
  const browser: ContentBrowser = {
    runtime: {
      id: EXTENSION_ID,
      sendMessage: (message) => {
        sent.push(message as never);
        const answer = Promise.resolve((message as { type: string }).type === 'page/config' ? config() : (answerFind(message) ?? null));
        answers.push(answer);
        return answer;
      },
      onMessage: { addListener: (cb) => void messageListeners.push(cb) },
    },
  };
  const ask = (message: unknown, senderId = EXTENSION_ID) => {
    let answer: unknown;
    messageListeners.forEach((cb) => cb(message, { id: senderId }, (a) => (answer = a)));
    return answer;
  };
  const finder = { loads: 0, available: true as boolean, hold: null as Promise<void> | null };
  /** The second stage as the entrypoint loads it (here: the module itself), counted. */
  const loadFinder = async (): Promise<StartClickToCall | null> => {
    finder.loads++;
    await finder.hold;
    return finder.available ? startClickToCall : null;
  };
  return {
    browser,
    sent,
    loadFinder,
    finder,
    /** The background's data-free "settings changed" command (lib/background/page-scripts.ts). */
    refresh: (senderId = EXTENSION_ID) => ask({ type: 'page/refresh' }, senderId),
    /**
     * Resolves once the script has read every answer given so far: answers are read in microtasks,
     * which all run before the next macrotask. The script's reaction to them is then complete.
     */
    answered: async () => {
      await Promise.all(answers);
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** What the content script answers the background (or another sender). */
    ask,
  };
}

const ON = { enabled: true, defaultCountry: 'US', agentName: 'Sales outreach' };
let stop: (() => void) | null = null;

afterEach(() => {
  stop?.();
  stop = null;
  document.body.innerHTML = '';
  document.querySelectorAll(OVERLAY_SELECTOR).forEach((e) => e.remove());
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
    const script = runContentScript(ext.browser, ext.loadFinder);
    stop = script.stop;
    await vi.waitFor(() => expect(ext.sent.map((m) => m.type)).toEqual(['page/config']));
    await ext.answered();
    // Starting would have made a scanner right here (a report follows only from one).
    expect(script.current()).toBeNull();
    expect(ext.sent.map((m) => m.type)).toEqual(['page/config']);
  });

  it('starts when enabled, and stops (clearing its report) when settings turn it off', async () => {
    document.body.innerHTML = '<p>(415) 555-0132</p>';
    let config = ON;
    const ext = fakeExtension(() => config);
    const script = runContentScript(ext.browser, ext.loadFinder);
    stop = script.stop;
    await vi.waitFor(() => expect(ext.sent.filter((m) => m.type === 'page/numbers')).toHaveLength(1));

    config = { ...ON, enabled: false };
    // Only our background's command makes it ask again; it answers so the background injects no second copy.
    expect(ext.refresh('another-extension')).toBeUndefined();
    expect(ext.sent.filter((m) => m.type === 'page/config')).toHaveLength(1);
    expect(ext.refresh()).toBe(true);
    await vi.waitFor(() => expect(script.current()).toBeNull());
    await vi.waitFor(() => expect(ext.sent.at(-1)).toEqual({ type: 'page/numbers', numbers: [], total: 0 }));

    config = ON;
    ext.refresh();
    await vi.waitFor(() => expect(script.current()).not.toBeNull());
  });

  it('neither reads nor watches storage (a change of a key reaches every frame that listens)', async () => {
    document.body.innerHTML = '<p>(415) 555-0132</p>';
    const ext = fakeExtension(() => ON);
    const storage = { onChanged: { addListener: vi.fn() }, local: { get: vi.fn() }, session: { get: vi.fn() } };
    const script = runContentScript({ ...ext.browser, storage } as never, ext.loadFinder);
    stop = script.stop;
    await vi.waitFor(() => expect(ext.sent.filter((m) => m.type === 'page/numbers')).toHaveLength(1));
    expect(storage.onChanged.addListener).not.toHaveBeenCalled();
    expect(storage.local.get).not.toHaveBeenCalled();
    expect(storage.session.get).not.toHaveBeenCalled();
  });

  it('keeps its scan when only the agent name changes, and restarts for a new country', async () => {
    document.body.innerHTML = '<p>020 7946 0958</p>';
    let config = ON;
    const ext = fakeExtension(() => config);
    const script = runContentScript(ext.browser, ext.loadFinder);
    stop = script.stop;
    await vi.waitFor(() => expect(script.current()).not.toBeNull());
    const first = script.current();
    config = { ...ON, agentName: 'Reminder' };
    ext.refresh();
    expect(ext.sent.filter((m) => m.type === 'page/config')).toHaveLength(2);
    await ext.answered();
    expect(script.current()).toBe(first);
    config = { ...ON, defaultCountry: 'GB' };
    ext.refresh();
    await vi.waitFor(() => expect(script.current()).not.toBe(first));
    await vi.waitFor(() => expect(ext.sent.filter((m) => m.type === 'page/numbers').at(-1)).toEqual({
      type: 'page/numbers',
      numbers: [{ raw: '020 7946 0958', e164: '+442079460958' }],
      total: 1,
    }));
  });

  it('loads the finder once, and only when the page may hold a number; a number added later loads it', async () => {
    document.body.innerHTML = '<article><h1>A long read</h1><p>Chapter two, page 12 of 40, $125.00.</p></article>';
    const ext = fakeExtension(() => ON);
    const script = runContentScript(ext.browser, ext.loadFinder);
    stop = script.stop;
    // The top frame still says "nothing here" once, so the popup knows the page.
    await vi.waitFor(() => expect(ext.sent.filter((m) => m.type === 'page/numbers')).toEqual([{ type: 'page/numbers', numbers: [], total: 0 }]));
    expect(ext.finder.loads).toBe(0);
    expect(script.current()).toBeNull();

    // A single-page app renders a contact card later.
    const p = document.createElement('p');
    p.innerHTML = 'Reception: <span>(415)</span> <span>555-0132</span>';
    document.body.append(p);
    await vi.waitFor(() => expect(ext.sent.at(-1)).toEqual({ type: 'page/numbers', numbers: [{ raw: '(415) 555-0132', e164: '+14155550132' }], total: 1 }), { timeout: 5000 });
    expect(ext.finder.loads).toBe(1);

    // A new country restarts click-to-call with the finder already here.
    ext.refresh();
    await ext.answered();
    expect(ext.finder.loads).toBe(1);
  });

  it('loads the finder for tel: links, read-only phone inputs and shadow roots with numbers, not for a search box', async () => {
    const cases: [string, boolean][] = [
      ['<a href="tel:+14155550132">Office</a>', true],
      ['<input readonly value="+1 415 555 0132">', true],
      ['<textarea disabled>Call 020 7946 0958</textarea>', true],
      ['<input value="" placeholder="Search"><input readonly value="Order 12">', false],
      ['<div id="host"></div>', true],
    ];
    for (const [html, loads] of cases) {
      document.body.innerHTML = html;
      const host = document.getElementById('host');
      host?.attachShadow({ mode: 'open' }).append('Support line (415) 555-0199');
      const ext = fakeExtension(() => ON);
      const script = runContentScript(ext.browser, ext.loadFinder);
      await vi.waitFor(() => expect(ext.sent.some((m) => m.type === 'page/numbers') || ext.finder.loads > 0).toBe(true));
      await ext.answered();
      expect(ext.finder.loads, html).toBe(loads ? 1 : 0);
      script.stop();
    }
  });

  it('starts nothing when the finder cannot be loaded, or when the site is switched off while it loads', async () => {
    document.body.innerHTML = '<p>(415) 555-0132</p>';
    const failing = fakeExtension(() => ON);
    failing.finder.available = false;
    const first = runContentScript(failing.browser, failing.loadFinder);
    await vi.waitFor(() => expect(failing.finder.loads).toBe(1));
    await failing.answered();
    expect(first.current()).toBeNull();
    expect(failing.sent.map((m) => m.type)).toEqual(['page/config']);
    first.stop();

    let config = ON;
    const slow = fakeExtension(() => config);
    let release: () => void = () => undefined;
    slow.finder.hold = new Promise<void>((resolve) => (release = resolve));
    const second = runContentScript(slow.browser, slow.loadFinder);
    stop = second.stop;
    await vi.waitFor(() => expect(slow.finder.loads).toBe(1));
    config = { ...ON, enabled: false };
    slow.refresh();
    await slow.answered();
    release();
    await slow.answered();
    expect(second.current()).toBeNull();
    expect(slow.sent.filter((m) => m.type === 'page/numbers')).toEqual([]);
  });

  it('answers the background’s selection request, and nobody else’s', async () => {
    document.body.innerHTML = '<p id="p">Call 415 555 0132 now</p>';
    const ext = fakeExtension(() => ON);
    stop = runContentScript(ext.browser, ext.loadFinder).stop;
    const text = document.getElementById('p')!.firstChild!;
    const range = document.createRange();
    range.setStart(text, 5);
    range.setEnd(text, 17);
    window.getSelection()!.addRange(range);
    const selected = () => ext.sent.filter((m) => m.type === 'page/selected');
    // The focused frame says "here" and sends its selection as a message of its own (the browser names its sender).
    expect(ext.ask({ type: 'page/selection' })).toBe(true);
    expect(selected()).toEqual([{ type: 'page/selected', text: '415 555 0132' }]);
    expect(ext.ask({ type: 'page/selection' }, 'another-extension')).toBeUndefined();
    expect(ext.ask({ type: 'page/call' })).toBeUndefined();
    expect(selected()).toHaveLength(1);
  });

  it('a frame the user is not in stays silent: the shortcut takes the focused frame’s selection', async () => {
    document.body.innerHTML = '<p id="p">Call 415 555 0132 now</p><iframe id="f"></iframe>';
    const ext = fakeExtension(() => ON);
    stop = runContentScript(ext.browser, ext.loadFinder).stop;
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('p')!);
    window.getSelection()!.addRange(range);
    // Focus is in the child frame: this document has focus, but its focused element is that frame.
    const focus = vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const active = vi.spyOn(document, 'activeElement', 'get').mockReturnValue(document.getElementById('f'));
    try {
      expect(ext.ask({ type: 'page/selection' })).toBeUndefined();
      active.mockReturnValue(document.body);
      focus.mockReturnValue(false);
      // Another window has focus: no frame of this one answers.
      expect(ext.ask({ type: 'page/selection' })).toBeUndefined();
      expect(ext.sent.filter((m) => m.type === 'page/selected')).toEqual([]);
    } finally {
      focus.mockRestore();
      active.mockRestore();
    }
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

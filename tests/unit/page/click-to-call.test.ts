// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startClickToCall, visibleBlocks, type ClickToCall, type PageLink } from '../../../lib/page/click-to-call';
import type { PageRequest } from '../../../lib/page/messages';
import { OVERLAY_SELECTOR, overlayRoot } from '../../../lib/page/overlay';
import { answerFind } from '../helpers/background-finder';

let running: ClickToCall | null = null;

/** A background that answers page/find as the real one does (lib/background/page-service.ts). */
function fakeLink() {
  const sent: PageRequest[] = [];
  const link: PageLink = {
    send: async (request) => {
      sent.push(request);
      return answerFind(request) ?? null;
    },
    alive: () => true,
  };
  return { link, sent };
}

function start(html: string, agentName: string | null = 'Sales outreach') {
  document.body.innerHTML = html;
  const { link, sent } = fakeLink();
  running = startClickToCall(link, { defaultCountry: 'US', agentName });
  return { sent, scanner: running.scanner };
}

/** Browsers set isTrusted only for real input; happy-dom lets a test say the event is real. */
function trusted<E extends Event>(event: E): E {
  Object.defineProperty(event, 'isTrusted', { value: true });
  return event;
}

const numbersReports = (sent: PageRequest[]) => sent.filter((r): r is Extract<PageRequest, { type: 'page/numbers' }> => r.type === 'page/numbers');
const calls = (sent: PageRequest[]) => sent.filter((r) => r.type === 'page/call');

/**
 * Takes over the window's idle callbacks, where the scanner does its work: `runAll()` runs every
 * slice requested (and every slice those request) until none is left, i.e. until the script is idle.
 */
function manualIdle() {
  const w = window as unknown as { requestIdleCallback?: unknown; cancelIdleCallback?: unknown };
  const saved = { request: w.requestIdleCallback, cancel: w.cancelIdleCallback };
  const slices = new Map<number, (deadline: { timeRemaining(): number; didTimeout: boolean }) => void>();
  let nextId = 1;
  w.requestIdleCallback = (cb: (deadline: { timeRemaining(): number; didTimeout: boolean }) => void) => {
    slices.set(nextId, cb);
    return nextId++;
  };
  w.cancelIdleCallback = (id: number) => void slices.delete(id);
  restoreIdle = () => {
    w.requestIdleCallback = saved.request;
    w.cancelIdleCallback = saved.cancel;
  };
  return {
    /** Runs slices until none is requested any more; returns how many ran. */
    runAll(limit = 1000): number {
      let ran = 0;
      for (const [id, slice] of slices) {
        if (++ran > limit) throw new Error(`still requesting idle slices after ${limit}`);
        slices.delete(id);
        slice({ timeRemaining: () => 50, didTimeout: false });
      }
      return ran;
    },
  };
}
let restoreIdle: (() => void) | null = null;

/** One macrotask turn: every microtask queued so far (mutation records, answers) has run. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function scanned(scanner: ClickToCall['scanner']) {
  await vi.waitFor(() => expect(scanner.hasPendingWork()).toBe(false));
}

afterEach(() => {
  vi.useRealTimers();
  restoreIdle?.();
  restoreIdle = null;
  running?.stop();
  running = null;
  document.body.innerHTML = '';
  document.querySelectorAll(OVERLAY_SELECTOR).forEach((e) => e.remove());
});

describe('scanning and reporting', () => {
  it('scans in idle slices and reports each number once, as written and as E.164', async () => {
    const { sent, scanner } = start('<table><tr><td>(415) 555-0132</td><td>415.555.0132</td></tr><tr><td>+44 20 7946 0958</td></tr></table>');
    await scanned(scanner);
    await vi.waitFor(() => expect(numbersReports(sent)).toHaveLength(1));
    expect(numbersReports(sent)[0]!.numbers).toEqual([
      { raw: '(415) 555-0132', e164: '+14155550132' },
      { raw: '+44 20 7946 0958', e164: '+442079460958' },
    ]);
  });

  it('builds the place-name index as an idle task of its own before the first scan chunk', async () => {
    const slices: ((deadline: { timeRemaining(): number; didTimeout: boolean }) => void)[] = [];
    const w = window as unknown as { requestIdleCallback?: unknown; cancelIdleCallback?: unknown };
    const saved = { request: w.requestIdleCallback, cancel: w.cancelIdleCallback };
    w.requestIdleCallback = (cb: (typeof slices)[number]) => slices.push(cb);
    w.cancelIdleCallback = () => undefined;
    try {
      const { scanner } = start('<p>Office (415) 555-0132</p>');
      const runSlice = () => slices.shift()!({ timeRemaining: () => 50, didTimeout: false });
      runSlice(); // the place-name index (country from the page)
      expect(scanner.stats.chunks).toBe(0);
      runSlice(); // the scan
      expect(scanner.stats.chunks).toBeGreaterThan(0);
      while (slices.length > 0) runSlice();
      await vi.waitFor(() => expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550132']));
    } finally {
      w.requestIdleCallback = saved.request;
      w.cancelIdleCallback = saved.cancel;
    }
  });

  it('merges a burst of changes into one rescan and one new report', async () => {
    const { sent, scanner } = start('<ul id="list"><li>Ada: 212-555-0147</li></ul>');
    await vi.waitFor(() => expect(numbersReports(sent)).toHaveLength(1));
    const list = document.getElementById('list')!;
    for (const n of ['0102', '0114', '0123']) {
      const li = document.createElement('li');
      li.textContent = `New lead (646) 555-${n}`;
      list.appendChild(li);
    }
    await vi.waitFor(() => expect(numbersReports(sent)).toHaveLength(2), { timeout: 3000 });
    await scanned(scanner);
    expect(numbersReports(sent)[1]!.numbers.map((n) => n.e164)).toEqual(['+12125550147', '+16465550102', '+16465550114', '+16465550123']);
    // Removing a row drops its number.
    list.lastElementChild!.remove();
    await vi.waitFor(() => expect(numbersReports(sent)).toHaveLength(3), { timeout: 3000 });
    expect(numbersReports(sent)[2]!.numbers.map((n) => n.e164)).not.toContain('+16465550123');
  });

  it('never changes the page: text, editable areas and form values stay as they were', async () => {
    const html =
      '<form id="f"><input name="phone" value="(415) 555-0181"><textarea name="notes">call 415-555-0182</textarea></form>' +
      '<div contenteditable="true">Notes: 415 555 0183</div><p>Office (415) 555-0150</p>';
    const { scanner } = start(html);
    await scanned(scanner);
    expect(document.body.innerHTML).toBe(html);
    expect(new FormData(document.getElementById('f') as HTMLFormElement).get('phone')).toBe('(415) 555-0181');
    expect(scanner.matches().map((m) => m.e164)).toEqual(['+14155550150']);
  });

  it('reports an empty list once when the page has no numbers (so the popup can say so)', async () => {
    const idle = manualIdle();
    const { sent, scanner } = start('<p>Order 2024-05-14, total $1,234.50</p>');
    expect(idle.runAll()).toBeGreaterThan(0);
    // The text went to the background (a date is phone-shaped enough to ask); the answer settles it.
    expect(numbersReports(sent)).toEqual([]);
    await scanned(scanner);
    expect(numbersReports(sent)).toEqual([{ type: 'page/numbers', numbers: [], total: 0 }]);
    // Idle: it asks for no more slices, so nothing more can be reported.
    await nextTurn();
    expect(idle.runAll()).toBe(0);
    expect(numbersReports(sent)).toHaveLength(1);
  });

  it('stops: no more reports, an empty report for the badge, and no listeners left', async () => {
    const idle = manualIdle();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }); // the burst debounce
    const { sent, scanner } = start('<p>(415) 555-0132</p>');
    idle.runAll();
    await vi.waitFor(() => expect(numbersReports(sent)).toHaveLength(1));
    running!.stop();
    await vi.waitFor(() => expect(numbersReports(sent)).toHaveLength(2));
    expect(numbersReports(sent)[1]!.numbers).toEqual([]);
    document.body.insertAdjacentHTML('beforeend', '<p>212-555-0147</p>');
    // Every way the change could come back has run: mutation records (microtasks), the debounce
    // timer, and any slice either of them asked for.
    await nextTurn();
    vi.runAllTimers();
    expect(idle.runAll()).toBe(0);
    expect(numbersReports(sent)).toHaveLength(2);
    expect(scanner.matches()).toEqual([]);
  });
  it('stopped while an answer from the background is out: the answer reports nothing', async () => {
    const idle = manualIdle();
    const { sent, scanner } = start('<p>(415) 555-0132</p>');
    idle.runAll();
    await Promise.resolve(); // the slice's request goes out when its task ends; its answer is a turn away
    expect(sent.filter((r) => r.type === 'page/find')).toHaveLength(1);
    running!.stop();
    // The answer has come back and been handled once nothing is pending any more.
    await scanned(scanner);
    expect(numbersReports(sent)).toEqual([]);
    expect(scanner.matches()).toEqual([]);
  });
});

describe('the call button', () => {
  it('shows "Call with <agent>" on a trusted hover over a found link, outside the page flow, and calls on a trusted click', async () => {
    const { sent, scanner } = start('<p><a id="tel" href="tel:+14155552671">Main line</a></p>');
    await scanned(scanner);
    const a = document.getElementById('tel')!;
    // happy-dom lays everything out at (0,0): the pointer at (0,0) is over the link.
    a.dispatchEvent(trusted(new PointerEvent('pointermove', { bubbles: true, composed: true, clientX: 0, clientY: 0 })));
    const host = await vi.waitFor(() => {
      const el = document.querySelector(OVERLAY_SELECTOR);
      expect(el).toBeTruthy();
      return el!;
    });
    expect(host.parentElement).toBe(document.documentElement); // not inside <body>, a form or an editor
    expect(host.hasAttribute('data-no-click-to-call')).toBe(true);
    // Closed to the page: only this script's own module holds the root.
    expect(host.shadowRoot).toBeNull();
    const button = overlayRoot(host)!.querySelector('button')!;
    await vi.waitFor(() => expect(button.hidden).toBe(false));
    expect(button.getAttribute('aria-label')).toBe('Call with Sales outreach');

    button.click(); // untrusted: ignored
    expect(calls(sent)).toEqual([]);
    button.dispatchEvent(trusted(new MouseEvent('click', { bubbles: true, composed: true })));
    await vi.waitFor(() => expect(calls(sent)).toEqual([{ type: 'page/call', number: '+14155552671', source: 'overlay' }]));
    expect(button.hidden).toBe(true);
  });

  it('says "Call <number>" without an agent, hides on Escape, and ignores untrusted hovers', async () => {
    const { scanner } = start('<p><a id="tel" href="tel:+14155552671">(415) 555-2671</a></p>', null);
    await scanned(scanner);
    const a = document.getElementById('tel')!;
    a.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX: 0, clientY: 0 }));
    // A hover is handled in the next animation frame; frames run their callbacks in order.
    await new Promise((r) => window.requestAnimationFrame(() => window.requestAnimationFrame(r)));
    expect(document.querySelector(OVERLAY_SELECTOR)).toBeNull();

    a.dispatchEvent(trusted(new PointerEvent('pointermove', { bubbles: true, clientX: 0, clientY: 0 })));
    const button = await vi.waitFor(() => {
      const host = document.querySelector(OVERLAY_SELECTOR);
      const b = host && overlayRoot(host)?.querySelector('button');
      expect(b && !b.hidden).toBe(true);
      return b!;
    });
    expect(button.getAttribute('aria-label')).toBe('Call +14155552671');
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    document.dispatchEvent(trusted(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
    expect(button.hidden).toBe(true);
  });

  it('shows on keyboard focus of a number and puts the button next in the tab order', async () => {
    const { scanner } = start('<p><a id="tel" href="tel:+14155552671">Main line</a></p>');
    await scanned(scanner);
    const a = document.getElementById('tel')!;
    a.focus();
    a.dispatchEvent(trusted(new FocusEvent('focusin', { bubbles: true, composed: true })));
    const button = overlayRoot(document.querySelector(OVERLAY_SELECTOR)!)!.querySelector('button')!;
    expect(button.hidden).toBe(false);
    const tab = trusted(new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true, composed: true }));
    a.dispatchEvent(tab);
    expect(tab.defaultPrevented).toBe(true);
    expect(overlayRoot(document.querySelector(OVERLAY_SELECTOR)!)!.activeElement).toBe(button);

    // Escape on the button: hidden (focus goes back to the number: see the e2e test), and not shown
    // again for that number until focus leaves it.
    button.dispatchEvent(trusted(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true, composed: true })));
    expect(button.hidden).toBe(true);
    a.dispatchEvent(trusted(new FocusEvent('focusin', { bubbles: true, composed: true })));
    expect(button.hidden).toBe(true);
    a.dispatchEvent(trusted(new FocusEvent('focusout', { bubbles: true, composed: true })));
    a.dispatchEvent(trusted(new FocusEvent('focusin', { bubbles: true, composed: true })));
    expect(button.hidden).toBe(false);
  });
});

describe('tel: links', () => {
  it('a trusted click is prevented (no app picker) and becomes a call intent', async () => {
    const { sent, scanner } = start('<p><a id="tel" href="tel:+1-415-555-0132">Call</a></p>');
    await scanned(scanner);
    const event = trusted(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true, button: 0 }));
    document.getElementById('tel')!.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(calls(sent)).toEqual([{ type: 'page/call', number: '+14155550132', source: 'tel-link' }]));
  });

  it('a page script’s click, postMessage or custom events achieve nothing', async () => {
    const { sent, scanner } = start('<p><a id="tel" href="tel:+14155550132">Call</a></p>');
    await scanned(scanner);
    const synthetic = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    document.getElementById('tel')!.dispatchEvent(synthetic);
    expect(synthetic.defaultPrevented).toBe(false);
    window.postMessage({ type: 'page/call', number: '+14155550132', source: 'overlay' }, '*');
    document.dispatchEvent(new CustomEvent('page/call', { detail: { number: '+14155550132' } }));
    window.dispatchEvent(new MessageEvent('message', { data: { type: 'page/call', number: '+14155550132' } }));
    // Posted messages arrive in order: once this one is here, the forged one was delivered too.
    const marker = new Promise((resolve) => window.addEventListener('message', (e) => e.data === 'marker' && resolve(null)));
    window.postMessage('marker', '*');
    await marker;
    expect(calls(sent)).toEqual([]);
  });
});

describe('visibleBlocks', () => {
  it('picks blocks under the viewport’s sample points and never inline elements', () => {
    document.body.innerHTML = '<table><tbody><tr id="r1"><td><span>a</span></td></tr><tr id="r2"><td>b</td></tr></tbody></table>';
    const span = document.querySelector('span')!;
    const spy = vi.spyOn(document, 'elementFromPoint').mockReturnValue(span);
    const blocks = visibleBlocks(document, 800, 600);
    spy.mockRestore();
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.every((b) => b.localName !== 'span')).toBe(true);
  });
});

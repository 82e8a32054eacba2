// @vitest-environment happy-dom
/**
 * The finder's warm-up on the page (the place-name index; the phone library warms up in the
 * background, which parses) runs only where the page may hold a number; a page without pays it
 * only when a number appears.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerFind } from '../helpers/background-finder';

const warmed = vi.hoisted(() => ({ steps: 0 }));
vi.mock('../../../lib/phone/place-names', async (original) => {
  const actual = await original<typeof import('../../../lib/phone/place-names')>();
  return { ...actual, warmUpPlaces: () => (warmed.steps++, actual.warmUpPlaces()) };
});

const { startClickToCall } = await import('../../../lib/page/click-to-call');
const { mayHoldNumbers } = await import('../../../lib/page/first-look');

const link = { send: vi.fn(async (message: unknown) => answerFind(message) ?? null), alive: () => true };
let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
  warmed.steps = 0;
});

/** Runs idle work until the scanner is done (happy-dom's requestIdleCallback is a timer). */
async function settle(scanner: { hasPendingWork(): boolean }) {
  await vi.waitFor(() => expect(scanner.hasPendingWork()).toBe(false), { timeout: 5000 });
}

describe('mayHoldNumbers', () => {
  it('phone-shaped digit runs, tel:/callto: links and read-only inputs with numbers say yes; prose, small figures and editable inputs say no', () => {
    const yes = [
      '<p>Call (415) 555-0132</p>',
      '<td>4155550132</td>',
      '<p>Call <b>415</b>-<i>555</i>-0132</p>',
      '<p>０３－１２３４－５６７８</p>',
      '<a href="tel:+14155550132">Office</a>',
      '<a href="CALLTO:+1415">x</a>',
      '<input readonly value="(415) 555-0132">',
      '<input type="tel" disabled value="+44 20 7946 0958">',
      '<fieldset disabled><input value="415.555.0132"></fieldset>',
    ];
    const no = [
      '<p>A long read, with no digits at all.</p>',
      '<p>Page 12 of 40 · $125.00 · 2024</p>',
      '<a href="/contact">Contact</a>',
      '<input value="">',
      '<input value="(415) 555-0132">',
      '<input readonly type="number" value="4155550132">',
      '',
    ];
    for (const html of yes) {
      document.body.innerHTML = html;
      expect(mayHoldNumbers(document), html).toBe(true);
    }
    for (const html of no) {
      document.body.innerHTML = html;
      expect(mayHoldNumbers(document), html).toBe(false);
    }
  });
});

describe('the warm-up', () => {
  it('is skipped on a page without numbers, and a number added later is still found', async () => {
    document.body.innerHTML = '<article><h1>A long read</h1><p>Nothing here is a number.</p></article>';
    const c2c = startClickToCall(link, { defaultCountry: 'US', agentName: null });
    stop = c2c.stop;
    await settle(c2c.scanner);
    expect(warmed.steps).toBe(0);
    const p = document.createElement('p');
    p.textContent = 'Reception: (415) 555-0132';
    document.body.append(p);
    await vi.waitFor(() => expect(c2c.scanner.matches().map((m) => m.e164)).toEqual(['+14155550132']), { timeout: 5000 });
    expect(warmed.steps).toBe(0);
  });

  it('takes the first stage’s word for it: started after its look, it warms up without looking again', async () => {
    // A text the first stage would not have loaded the finder for: only the passed-on answer can warm up here.
    document.body.innerHTML = '<p>Nothing here is a number yet.</p>';
    const c2c = startClickToCall(link, { defaultCountry: 'US', agentName: null }, document, { mayHoldNumbers: true });
    stop = c2c.stop;
    await settle(c2c.scanner);
    expect(warmed.steps).toBeGreaterThan(0);
  });

  it('runs first on a page with a number', async () => {
    document.body.innerHTML = '<p>Reception: (415) 555-0132</p>';
    const c2c = startClickToCall(link, { defaultCountry: 'US', agentName: null });
    stop = c2c.stop;
    await settle(c2c.scanner);
    expect(warmed.steps).toBeGreaterThan(0);
    expect(c2c.scanner.matches().map((m) => m.e164)).toEqual(['+14155550132']);
  });
});

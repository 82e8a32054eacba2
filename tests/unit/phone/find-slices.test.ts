import { describe, expect, it } from 'vitest';
import { OVERLAP, ownNumbers, sliceAt } from '../../../lib/phone/find-slices';
import { findPhoneNumbers } from '../../../lib/phone/find';
import { seededRandom as seeded } from '../../support/fault-proxy';

const MAX = 2000;
const OWN = MAX - 2 * OVERLAP;

/** Every slice of `text` from its start, as a request would take them. */
function slicesOf(text: string, max = MAX) {
  const out = [];
  for (let at = 0; at < text.length; ) {
    const slice = sliceAt(text, at, max);
    out.push(slice);
    at = slice.end;
  }
  return out;
}

describe('sliceAt', () => {
  it('cuts after the last line break before the target, even with spaces after it', () => {
    const text = `${'a'.repeat(OWN - 50)}\n${'b c '.repeat(200)}`;
    expect(sliceAt(text, 0, MAX).end).toBe(OWN - 49);
  });

  it('cuts after a space where the window has no line break (a page collapses line breaks to spaces)', () => {
    const text = `${'x'.repeat(OWN - 30)} ${'y'.repeat(5000)}`;
    expect(sliceAt(text, 0, MAX).end).toBe(OWN - 29);
  });

  it('does not cut at a line break or space further back than its window: the cut is then at the target', () => {
    const text = `${'a'.repeat(10)}\n ${'z'.repeat(10_000)}`;
    const slice = sliceAt(text, 0, MAX);
    expect(slice.end).toBe(OWN);
    expect(slice.text.length).toBeLessThanOrEqual(MAX);
  });

  it('tiles the whole text, each slice within its size, on texts with line breaks, only spaces, or neither', () => {
    const r = seeded(5);
    const shapes = {
      lines: () => Array.from({ length: 3000 }, (_, i) => `row ${i},${Math.floor(r() * 1e9)}`).join('\n'),
      spaces: () => Array.from({ length: 3000 }, (_, i) => `row ${i},${Math.floor(r() * 1e9)}`).join(' '),
      neither: () => Array.from({ length: 3000 }, () => Math.floor(r() * 1e9).toString(36)).join(','),
    };
    for (const [name, make] of Object.entries(shapes)) {
      const text = make();
      const slices = slicesOf(text);
      expect(slices[0]!.start, name).toBe(0);
      for (let k = 1; k < slices.length; k++) expect(slices[k]!.start, name).toBe(slices[k - 1]!.end);
      expect(slices.at(-1)!.end, name).toBe(text.length);
      for (const s of slices) {
        expect(s.text.length, name).toBeLessThanOrEqual(MAX);
        expect(text.slice(s.from, s.from + s.text.length), name).toBe(s.text);
      }
    }
  });

  it('read slice by slice, a long text gives every number once, at its place in the whole text', () => {
    const r = seeded(11);
    const area = ['212', '415', '646', '702'];
    // A raw CSV as a page gives it: its line breaks collapsed to spaces.
    const lines = Array.from({ length: 600 }, (_, i) => `E${i},2026-03-02 10:${String(i % 60).padStart(2, '0')},call,"Customer ${i}",(${area[i % 4]}) 555-01${String(Math.floor(r() * 100)).padStart(2, '0')},${Math.floor(r() * 900)}`);
    const text = lines.join(' ');
    const whole = findPhoneNumbers(text, { defaultCountry: 'US' }).map((m) => [m.start, m.end, m.e164]);
    const sliced = slicesOf(text).flatMap((s) => ownNumbers(s, findPhoneNumbers(s.text, { defaultCountry: 'US' })).map((m) => [m.start, m.end, m.e164]));
    expect(whole).toHaveLength(600);
    expect(sliced).toEqual(whole);
  });
});

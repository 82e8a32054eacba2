/**
 * The finder runs libphonenumber-js with V8's stack traces off (find.ts withoutStackTraces): the
 * library rejects each look-alike by throwing a ParseError, and capturing a trace for each was a
 * measurable part of a page of look-alikes. The setting must come back as it was, even when `fn`
 * throws, and answers must not change.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { findPhoneNumbers, parseTelHref, withoutStackTraces } from '../../../lib/phone/find';

const E = Error as { stackTraceLimit?: number };
const original = E.stackTraceLimit;
afterEach(() => {
  E.stackTraceLimit = original;
});

describe('withoutStackTraces', () => {
  it('turns traces off while it runs and restores the limit after, also after a throw', () => {
    E.stackTraceLimit = 7;
    let inside: number | undefined;
    let stack: string | undefined;
    expect(withoutStackTraces(() => {
      inside = E.stackTraceLimit;
      stack = new Error('x').stack;
      return 42;
    })).toBe(42);
    expect(inside).toBe(0);
    expect(stack).not.toMatch(/\n\s+at /); // no frames captured
    expect(E.stackTraceLimit).toBe(7);
    expect(() => withoutStackTraces(() => {
      throw new Error('boom');
    })).toThrow('boom');
    expect(E.stackTraceLimit).toBe(7);
  });

  it('leaves engines without the setting alone', () => {
    delete E.stackTraceLimit;
    expect(withoutStackTraces(() => E.stackTraceLimit)).toBeUndefined();
    expect('stackTraceLimit' in Error).toBe(false);
  });

  it('the finder’s answers are the same, and the limit is back after each call', () => {
    E.stackTraceLimit = 10;
    const texts = ['Call (415) 555-0132 or +44 20 7946 0958', 'INV 4155550132', 'Item: 4155550132', 'Order 12, 2024-05-01'];
    const found = texts.map((t) => findPhoneNumbers(t, { defaultCountry: 'US' }).map((m) => m.e164));
    expect(found).toEqual([['+14155550132', '+442079460958'], [], [], []]);
    expect(parseTelHref('tel:+1-415-555-0132')?.e164).toBe('+14155550132');
    expect(E.stackTraceLimit).toBe(10);
  });
});

/** The element's checks without zod (lib/widget/check.ts) answer as the wire's zod schemas do. */
import { describe, expect, it } from 'vitest';
import { asCallView, asWidgetError, checkVariables } from '../../../lib/widget/check';
import { widgetCallView, widgetError, widgetVariables } from '../../../lib/widget/wire';

const view = {
  id: 'w1', agentId: 'a', toNumber: '+14155550123', via: 'call', executionId: null, status: null, observed: [{ status: 'queued', at: 1 }],
  done: false, message: null, stopRequested: false, durationSeconds: null, cost: null, transcript: null, recordingUrl: null, extractedData: null,
};

describe('widget checks', () => {
  it.each([
    [{}], [{ name: 'Ada' }], [{ name: 1 }], [{ '': 'x' }], [{ ['n'.repeat(65)]: 'x' }], [{ n: 'x'.repeat(2001) }],
    [Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, 'v']))], [['a']], ['text'], [null],
  ])('variables %#', (value) => {
    expect(checkVariables(value).ok).toBe(widgetVariables.safeParse(value).success);
  });
  it.each([
    [view], [{ ...view, done: 'yes' }], [{ ...view, via: 'now' }], [{ ...view, observed: [{ status: 1, at: 1 }] }], [{ ...view, cost: '1' }],
    [{ ...view, extractedData: { a: 1 } }], [{ ...view, id: undefined }], [{ error: 'no', code: 'x' }], [null],
  ])('call view %#', (value) => {
    expect(asCallView(value) !== null).toBe(widgetCallView.safeParse(value).success);
  });
  it.each([[{ error: 'no', code: 'x' }], [{ error: 'no' }], [view], ['no']])('refusal %#', (value) => {
    expect(asWidgetError(value) !== null).toBe(widgetError.safeParse(value).success);
  });
});

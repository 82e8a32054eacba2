/** Sending a big contact list in parts under the message cap, and when the batch list looks again. */
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '../../../lib/messages';
import { PART_CHARS, splitParts, UploadStaging, STAGED_TTL_MS } from '../../../lib/batches/upload';
import { ACTIVE_REFRESH_MS, nextRefreshMs, statusCounts, WAITING_REFRESH_MS } from '../../../lib/batches/status';

describe('contact list parts', () => {
  it('fit one message each, even in the worst case of JSON escaping', () => {
    const worst = '\u0001'.repeat(PART_CHARS * 2 + 5);
    const parts = splitParts(worst);
    expect(parts).toHaveLength(3);
    for (const [index, text] of parts.entries()) {
      const message = { type: 'batches/upload-part', uploadId: 'u'.repeat(64), index, total: parts.length, text };
      expect(JSON.stringify(message).length).toBeLessThan(MAX_MESSAGE_BYTES);
    }
    expect(parts.join('')).toBe(worst);
  });
  it('never split a surrogate pair', () => {
    const text = `${'a'.repeat(PART_CHARS - 1)}😀tail`;
    const parts = splitParts(text);
    expect(parts.join('')).toBe(text);
    expect(parts.every((p) => !/[\uD800-\uDBFF]$/.test(p))).toBe(true);
  });
  it('are joined in order whatever order they arrive in, once all are there', () => {
    const staging = new UploadStaging(() => 0);
    expect(staging.put('u1', 1, 2, 'world')).toEqual({ received: 1, total: 2 });
    expect(() => staging.take('u1')).toThrow(/missing/);
    staging.put('u1', 1, 2, 'world');
    staging.put('u1', 0, 2, 'hello ');
    expect(staging.take('u1')).toBe('hello world');
    expect(() => staging.take('u1')).toThrow(/did not reach/);
  });
  it('refuse a list over the size limit, bad indexes, and forget unfinished uploads', () => {
    let now = 0;
    const staging = new UploadStaging(() => now);
    expect(() => staging.put('u', 0, 10_000, 'x')).toThrow(/too large/);
    expect(() => staging.put('u', 3, 2, 'x')).toThrow(/out of order/);
    staging.put('old', 0, 2, 'x');
    now = STAGED_TTL_MS + 1;
    staging.put('old2', 0, 1, 'y');
    expect(() => staging.take('old')).toThrow(/did not reach/);
    expect(staging.take('old2')).toBe('y');
  });
});

describe('refreshing the batch list', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('looks again every 5 s while a batch runs or is about to start', () => {
    expect(nextRefreshMs([{ status: 'completed' }, { status: 'running' }], now)).toBe(ACTIVE_REFRESH_MS);
    expect(nextRefreshMs([{ status: 'queued' }], now)).toBe(ACTIVE_REFRESH_MS);
    expect(nextRefreshMs([{ status: 'scheduled', scheduled_at: '2026-11-23T12:05:00+00:00' }], now)).toBe(ACTIVE_REFRESH_MS);
  });
  it('looks once a minute at a batch scheduled far ahead', () => {
    expect(nextRefreshMs([{ status: 'scheduled', scheduled_at: '2026-11-23T15:00:00+00:00' }], now)).toBe(WAITING_REFRESH_MS);
  });
  it('stops when nothing will change by itself', () => {
    expect(nextRefreshMs([{ status: 'created' }, { status: 'completed' }, { status: 'executed' }, { status: 'stopped' }, { status: 'failed' }], now)).toBeNull();
    expect(nextRefreshMs([], now)).toBeNull();
  });
  it('lists per-status counts, largest first, without zeros', () => {
    expect(statusCounts({ completed: 2, busy: 1, 'no-answer': 0, 'in-progress': 3 }).map((c) => [c.status, c.count])).toEqual([
      ['in-progress', 3],
      ['completed', 2],
      ['busy', 1],
    ]);
  });
});

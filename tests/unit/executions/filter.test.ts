// The Executions filter: form values → the service's query, and the one 7-day window rule.
import { describe, expect, it } from 'vitest';
import { defaultFilter, filterToQuery, localDate, matchesQuery, MAX_WINDOW_MS, startOfLocalDay, windowProblem, type ExecutionFilter } from '../../../lib/executions/filter';

const filter = (over: Partial<ExecutionFilter> = {}): ExecutionFilter => ({ status: '', batchId: '', fromDate: '2026-11-17', toDate: '2026-11-23', ...over });
const midnight = (y: number, m: number, d: number) => new Date(y, m - 1, d).getTime();

describe('filterToQuery', () => {
  it('covers the first day from midnight to the last day up to its last second, in local time', () => {
    const result = filterToQuery(filter());
    expect(result).toEqual({ ok: true, query: { from: midnight(2026, 11, 17), to: midnight(2026, 11, 24) - 1000 } });
  });

  it('accepts 7 calendar days and a single day', () => {
    expect(filterToQuery(filter({ fromDate: '2026-11-01', toDate: '2026-11-07' })).ok).toBe(true);
    const one = filterToQuery(filter({ fromDate: '2026-11-23', toDate: '2026-11-23' }));
    expect(one).toEqual({ ok: true, query: { from: midnight(2026, 11, 23), to: midnight(2026, 11, 24) - 1000 } });
  });

  it.each([
    ['8 days', '2026-11-16', '2026-11-23'],
    ['a month', '2026-10-23', '2026-11-23'],
    ['across a year end', '2025-12-28', '2026-01-05'],
  ])('refuses %s with a message naming the 7-day limit', (_what, fromDate, toDate) => {
    const result = filterToQuery(filter({ fromDate, toDate }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/at most 7 days/);
  });

  it('refuses an end before the start, a missing date and a date that does not exist', () => {
    expect(filterToQuery(filter({ fromDate: '2026-11-23', toDate: '2026-11-20' }))).toEqual({ ok: false, message: 'The start date is after the end date.' });
    expect(filterToQuery(filter({ toDate: '' }))).toEqual({ ok: false, message: 'Enter both a start and an end date.' });
    expect(filterToQuery(filter({ fromDate: '2026-02-30' }))).toEqual({ ok: false, message: 'The start date "2026-02-30" is not a date.' });
    expect(filterToQuery(filter({ toDate: 'yesterday' }))).toEqual({ ok: false, message: 'The end date "yesterday" is not a date.' });
  });

  it('passes status and a trimmed batch id only when chosen', () => {
    const result = filterToQuery(filter({ status: 'busy', batchId: '  0123abcd0123abcd0123abcd0123abcd ' }));
    expect(result.ok && result.query).toMatchObject({ status: 'busy', batchId: '0123abcd0123abcd0123abcd0123abcd' });
    const plain = filterToQuery(filter());
    expect(plain.ok && 'status' in plain.query).toBe(false);
    expect(plain.ok && 'batchId' in plain.query).toBe(false);
  });

  it('never yields a window wider than the service allows', () => {
    for (let d = 1; d <= 28; d++) {
      const fromDate = `2026-03-${String(d).padStart(2, '0')}`;
      const toDate = localDate(midnight(2026, 3, d + 6));
      const result = filterToQuery(filter({ fromDate, toDate }));
      expect(result.ok).toBe(true);
      if (result.ok) expect(result.query.to - result.query.from).toBeLessThanOrEqual(MAX_WINDOW_MS);
    }
  });
});

describe('defaultFilter', () => {
  it('is the last 7 days, today included, and is itself accepted', () => {
    const now = new Date(2026, 10, 23, 15, 30).getTime();
    expect(defaultFilter(now)).toEqual({ status: '', batchId: '', fromDate: '2026-11-17', toDate: '2026-11-23' });
    expect(filterToQuery(defaultFilter(now)).ok).toBe(true);
  });
});

describe('windowProblem (the background checks requests with it too)', () => {
  it('allows exactly 7 days and refuses one second more', () => {
    expect(windowProblem(0, MAX_WINDOW_MS)).toBeNull();
    expect(windowProblem(0, MAX_WINDOW_MS + 1000)).toMatch(/at most 7 days/);
    expect(windowProblem(10, 5)).toBe('The start date is after the end date.');
  });
});

describe('startOfLocalDay', () => {
  it('reads real dates only', () => {
    expect(startOfLocalDay('2026-11-23')).toBe(midnight(2026, 11, 23));
    expect(startOfLocalDay('2026-13-01')).toBeNull();
    expect(startOfLocalDay('23/11/2026')).toBeNull();
  });
});

describe('matchesQuery', () => {
  const query = { from: Date.parse('2026-11-20T00:00:00Z'), to: Date.parse('2026-11-21T00:00:00Z'), status: 'busy', batchId: 'b1' };
  const exec = { status: 'busy', batch_id: 'b1', created_at: '2026-11-20T10:00:00Z' };
  it('keeps what matches every part and drops what misses any', () => {
    expect(matchesQuery(exec, query)).toBe(true);
    expect(matchesQuery({ ...exec, status: 'completed' }, query)).toBe(false);
    expect(matchesQuery({ ...exec, batch_id: 'b2' }, query)).toBe(false);
    expect(matchesQuery({ ...exec, batch_id: null }, query)).toBe(false);
    expect(matchesQuery({ ...exec, created_at: '2026-11-21T00:00:01Z' }, query)).toBe(false);
    expect(matchesQuery({ ...exec, created_at: '2026-11-19T23:59:59Z' }, query)).toBe(false);
    expect(matchesQuery({ status: 'completed', created_at: '2026-11-20T01:00:00Z' }, { from: query.from, to: query.to })).toBe(true);
  });
});

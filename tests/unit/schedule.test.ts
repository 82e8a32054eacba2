import { describe, expect, it } from 'vitest';
import { earliestScheduledAt, formatScheduledAt, liveStartTime, scheduledAt, ScheduleError } from '../../lib/api/schedule';

const now = new Date('2026-11-21T12:00:00.000Z');

describe('scheduledAt', () => {
  it('writes a numeric +00:00 offset, never Z', () => {
    const text = scheduledAt(new Date('2026-11-21T12:03:00.250Z'), now);
    expect(text).toBe('2026-11-21T12:03:00+00:00');
    expect(text.endsWith('Z')).toBe(false);
  });

  it('refuses a time less than 2 minutes ahead before any request', () => {
    expect(() => scheduledAt(new Date('2026-11-21T12:01:30Z'), now)).toThrow(ScheduleError);
    expect(() => scheduledAt(new Date('2026-11-21T12:01:59.999Z'), now)).toThrow(/at least 2 minutes/);
    expect(scheduledAt(new Date('2026-11-21T12:02:00Z'), now)).toBe('2026-11-21T12:02:00+00:00');
  });

  it('refuses an invalid date', () => {
    expect(() => formatScheduledAt(new Date('garbage'))).toThrow(/not a valid date/);
  });

  it('earliest start is at least 2 minutes ahead and accepted by scheduledAt', () => {
    const at = earliestScheduledAt(now);
    expect(at.getTime() - now.getTime()).toBeGreaterThanOrEqual(120_000);
    expect(() => scheduledAt(at, now)).not.toThrow();
  });

  it('live start rounds up to the next 10-minute mark', () => {
    expect(liveStartTime(new Date('2026-11-21T12:02:00Z')).toISOString()).toBe('2026-11-21T12:10:00.000Z');
    expect(liveStartTime(new Date('2026-11-21T12:10:00Z')).toISOString()).toBe('2026-11-21T12:10:00.000Z');
  });
});

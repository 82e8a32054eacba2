/**
 * The schedule picker's rules, in a time zone with clock changes (Berlin): local time read as the
 * person meant it, the service's 2-minute rule before sending, and the real start shown.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { checkPick, defaultPickerValue, timeZoneText, toPickerValue } from '../../../lib/batches/schedule';

const zoneBefore = process.env.TZ;
// Node reads TZ whenever it is set; put back for any file that shares this worker.
process.env.TZ = 'Europe/Berlin';
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

const now = new Date('2026-11-23T12:00:30Z'); // 13:00:30 in Berlin (UTC+1)

describe('the batch schedule picker', () => {
  it('reads the value in the local time zone and sends it with a numeric offset, never Z', () => {
    const pick = checkPick('2026-11-23T13:30', now);
    expect(pick).toMatchObject({ ok: true, scheduledAt: '2026-11-23T12:30:00+00:00' });
  });
  it('refuses a past time before anything is sent', () => {
    expect(checkPick('2026-11-23T12:59', now)).toEqual({ ok: false, error: expect.stringMatching(/already passed.+at least 2 minutes/) });
    expect(checkPick('2025-01-01T09:00', now)).toMatchObject({ ok: false });
  });
  it('refuses a time less than 2 minutes ahead (with a margin for the request), accepts one just after', () => {
    expect(checkPick('2026-11-23T13:02', now)).toEqual({ ok: false, error: 'The scheduled time must be at least 2 minutes in the future.' });
    expect(checkPick('2026-11-23T13:03', now)).toMatchObject({ ok: true });
  });
  it('shows the real start: the hosted service rounds up to the next 10-minute mark', () => {
    const pick = checkPick('2026-11-23T13:03', now);
    expect(pick.ok && toPickerValue(pick.startsAt)).toBe('2026-11-23T13:10');
    const onMark = checkPick('2026-11-23T13:20', now);
    expect(onMark.ok && toPickerValue(onMark.startsAt)).toBe('2026-11-23T13:20');
  });
  it('starts at the earliest accepted 10-minute mark', () => {
    expect(defaultPickerValue(now)).toBe('2026-11-23T13:10');
    expect(checkPick(defaultPickerValue(new Date('2026-11-23T12:08:00Z')), new Date('2026-11-23T12:08:00Z'))).toMatchObject({ ok: true });
  });
  it('refuses empty, partial and impossible values with a reason', () => {
    expect(checkPick('', now)).toEqual({ ok: false, error: 'Choose the date and time the batch should start.' });
    expect(checkPick('2026-11-23', now)).toEqual({ ok: false, error: 'Enter the date and time in full.' });
    expect(checkPick('2027-02-30T10:00', now)).toEqual({ ok: false, error: 'That date does not exist.' });
  });
  it('refuses a local time skipped by the spring clock change', () => {
    expect(checkPick('2027-03-28T02:30', now)).toMatchObject({ ok: false, error: expect.stringMatching(/does not exist in your time zone/) });
    expect(checkPick('2027-03-28T03:30', now)).toMatchObject({ ok: true, scheduledAt: '2027-03-28T01:30:00+00:00' });
  });
  it('names the time zone and its offset at that date', () => {
    expect(timeZoneText(new Date('2026-11-23T12:00:00Z'))).toBe('Europe/Berlin (UTC+01:00)');
    expect(timeZoneText(new Date('2027-07-01T12:00:00Z'))).toBe('Europe/Berlin (UTC+02:00)');
  });
});

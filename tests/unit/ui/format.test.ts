import { describe, expect, it } from 'vitest';
import { executionDuration } from '../../../lib/executions/duration';
import {
  formatClock,
  formatCountdown,
  formatDuration,
  formatFromNow,
  formatValue,
  parseTranscript,
  safeFileName,
} from '../../../lib/ui/format';

describe('formatDuration', () => {
  it('writes seconds, minutes and hours', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(125)).toBe('2 min 05 s');
    expect(formatDuration(3720)).toBe('1 h 02 min');
  });
  it('says — for missing or invalid values', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(undefined)).toBe('—');
    expect(formatDuration(Number.NaN)).toBe('—');
    expect(formatDuration(-1)).toBe('—');
  });
});

describe('formatCountdown', () => {
  it('counts minutes and seconds, rounding up, never negative', () => {
    expect(formatCountdown(135_000)).toBe('2:15');
    expect(formatCountdown(134_001)).toBe('2:15');
    expect(formatCountdown(3_723_000)).toBe('1:02:03');
    expect(formatCountdown(-5_000)).toBe('0:00');
  });
});

describe('formatFromNow', () => {
  it('rounds to whole minutes', () => {
    expect(formatFromNow(135_000, 0)).toBe('in about 2 minutes');
    expect(formatFromNow(60_000, 0)).toBe('in about 1 minute');
    expect(formatFromNow(30_000, 0)).toBe('in less than a minute');
    expect(formatFromNow(0, 10)).toBe('now');
    expect(formatFromNow(90 * 60_000, 0)).toBe('in about 1 h 30 min');
  });
});

describe('formatClock', () => {
  it('formats hours and minutes in the given zone', () => {
    const at = Date.parse('2026-11-21T12:10:05Z');
    expect(formatClock(at, { locale: 'en-GB', timeZone: 'UTC' })).toBe('12:10');
    expect(formatClock(at, { locale: 'en-GB', timeZone: 'UTC', seconds: true })).toBe('12:10:05');
    expect(formatClock(Number.NaN)).toBe('—');
  });
});

describe('parseTranscript', () => {
  it('splits assistant and user lines into turns', () => {
    expect(parseTranscript('assistant: Hello, this is Sam.\nuser: Hi!\nassistant: How are you?')).toEqual([
      { speaker: 'assistant', text: 'Hello, this is Sam.' },
      { speaker: 'user', text: 'Hi!' },
      { speaker: 'assistant', text: 'How are you?' },
    ]);
  });
  it('joins continuation lines to the turn before, and keeps text before any speaker', () => {
    expect(parseTranscript('Call started\n\nASSISTANT: one\ntwo\r\nUser:three: four')).toEqual([
      { speaker: null, text: 'Call started' },
      { speaker: 'assistant', text: 'one\ntwo' },
      { speaker: 'user', text: 'three: four' },
    ]);
  });
  it('does not treat other words with a colon as speakers', () => {
    expect(parseTranscript('user: Note: call me at 5')).toEqual([{ speaker: 'user', text: 'Note: call me at 5' }]);
  });
  it('gives nothing for an empty transcript', () => {
    expect(parseTranscript('')).toEqual([]);
    expect(parseTranscript(null)).toEqual([]);
  });
});

describe('small helpers', () => {
  it('formats extracted values', () => {
    expect(formatValue(true)).toBe('Yes');
    expect(formatValue(false)).toBe('No');
    expect(formatValue(null)).toBe('—');
    expect(formatValue(12)).toBe('12');
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
  });
  it('reads the duration under either name', () => {
    expect(executionDuration({ conversation_duration: 12 })).toBe(12);
    expect(executionDuration({ conversation_time: 7 })).toBe(7);
    expect(executionDuration({})).toBeNull();
    expect(executionDuration(null)).toBeNull();
  });
  it('makes safe file names', () => {
    expect(safeFileName('execution-a/b c.json')).toBe('execution-a_b_c.json');
  });
});

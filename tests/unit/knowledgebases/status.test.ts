import { describe, expect, it } from 'vitest';
import { FIRST_POLL_MS, MAX_POLL_MS, isSettled, nextPollDelay, statusKind, statusLabel } from '../../../lib/knowledgebases/status';

describe('knowledgebase status', () => {
  it('processed and error are settled; processing and unknown words are followed', () => {
    expect(isSettled('processed')).toBe(true);
    expect(isSettled('error')).toBe(true);
    expect(isSettled('FAILED')).toBe(true);
    expect(isSettled('processing')).toBe(false);
    expect(isSettled('queued')).toBe(false);
    expect(isSettled(null)).toBe(false);
    expect(statusKind('Processed')).toBe('processed');
    expect(statusLabel('queued')).toBe('In progress (queued)');
    expect(statusLabel('processing')).toBe('Processing');
  });

  it('polls modestly: first after 2 s, then longer waits, never above 15 s', () => {
    expect(nextPollDelay(null)).toBe(FIRST_POLL_MS);
    const waits = [nextPollDelay(null)];
    for (let i = 0; i < 10; i++) waits.push(nextPollDelay(waits.at(-1)!));
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!);
    expect(waits.at(-1)).toBe(MAX_POLL_MS);
  });
});

import { describe, expect, it } from 'vitest';
import { timelineEntries } from '../../../lib/ui/timeline';

const at = (s: number) => 1_000_000 + s * 1000;

describe('timelineEntries', () => {
  it('lists the whole path, pending after the current status', () => {
    const entries = timelineEntries({ status: 'scheduled', observed: [{ status: 'scheduled', at: at(0) }] });
    expect(entries.map((e) => [e.status, e.state])).toEqual([
      ['scheduled', 'current'],
      ['queued', 'pending'],
      ['initiated', 'pending'],
      ['ringing', 'pending'],
      ['in-progress', 'pending'],
      ['call-disconnected', 'pending'],
      ['completed', 'pending'],
    ]);
    expect(entries[0]!.at).toBe(at(0));
  });

  it('marks statuses skipped between polls as not observed', () => {
    const entries = timelineEntries({
      status: 'in-progress',
      observed: [
        { status: 'scheduled', at: at(0) },
        { status: 'ringing', at: at(5) },
        { status: 'in-progress', at: at(9) },
      ],
    });
    expect(entries.map((e) => [e.status, e.state])).toEqual([
      ['scheduled', 'observed'],
      ['queued', 'not-observed'],
      ['initiated', 'not-observed'],
      ['ringing', 'observed'],
      ['in-progress', 'current'],
      ['call-disconnected', 'pending'],
      ['completed', 'pending'],
    ]);
  });

  it('places a terminal status off the path where it happened and drops what can no longer happen', () => {
    const entries = timelineEntries({
      status: 'no-answer',
      observed: [
        { status: 'scheduled', at: at(0) },
        { status: 'ringing', at: at(5) },
        { status: 'no-answer', at: at(30) },
      ],
    });
    expect(entries.map((e) => [e.status, e.state])).toEqual([
      ['scheduled', 'observed'],
      ['queued', 'not-observed'],
      ['initiated', 'not-observed'],
      ['ringing', 'observed'],
      ['no-answer', 'observed'],
    ]);
  });

  it('keeps unknown and early statuses in order', () => {
    const entries = timelineEntries({
      status: 'warming-up',
      observed: [
        { status: 'prepared', at: at(0) },
        { status: 'scheduled', at: at(1) },
        { status: 'warming-up', at: at(2) },
      ],
    });
    expect(entries.slice(0, 3).map((e) => [e.status, e.state])).toEqual([
      ['prepared', 'observed'],
      ['scheduled', 'observed'],
      ['warming-up', 'current'],
    ]);
  });
});

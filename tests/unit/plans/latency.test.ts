// Latency figures from latency_data (the live shape of service-facts.md and the sandbox's), their
// math, and the bounds a case puts on them, through the judge.
import { describe, expect, it } from 'vitest';
import { judgeCase } from '../../../lib/plans/judge';
import { latencyFigures, median, percentile } from '../../../lib/plans/latency';
import { latencyData, turnLatencies } from '../../../sandbox/latency';
import { liveExecution, plan } from './fixtures';

/** Shaped as a live execution's latency_data: strings for some numbers, interim sequences, extra keys. */
const LIVE = {
  stream_id: 'MZ0f2c',
  time_to_first_audio: 1180.4,
  region: 'in',
  transcriber: {
    time_to_connect: 212,
    turns: [
      { turn: 1, turn_latency: [{ sequence_id: 1, audio_to_text_latency: 150, text: 'hi' }, { sequence_id: 2, audio_to_text_latency: 310, text: 'hi there' }] },
      { turn: 2, turn_latency: [{ sequence_id: 1, audio_to_text_latency: '280', text: 'yes' }] },
      { turn: 3, turn_latency: [] },
    ],
  },
  llm: { turns: [{ turn: 1, turn_latency: [{ sequence_id: 1, time_to_first_token: 500 }] }, { turn: 2, turn_latency: [{ sequence_id: 1, time_to_first_token: 1900 }] }], model: 'x' },
  synthesizer: { turns: [{ turn: 1, turn_latency: [{ sequence_id: 1, time_to_first_byte: 190 }] }, { turn: 2, turn_latency: [{ sequence_id: 1, time_to_first_byte: 220 }] }] },
};

describe('latency math', () => {
  it('median (mean of the middle two for an even count), nearest-rank p95, worst', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100], 95)).toBe(19);
    expect(percentile([10], 95)).toBe(10);
    expect(median([])).toBeNull();
  });

  it('a turn is the sum of each part\'s slowest sequence; a turn without numbers is left out (live shape)', () => {
    expect(latencyFigures(LIVE)).toEqual({ firstAudioMs: 1180.4, turnsMs: [1000, 2400], medianMs: 1700, p95Ms: 2400, worstMs: 2400 });
  });

  it('nothing readable is null; a wrong part is ignored, not fatal', () => {
    expect(latencyFigures(null)).toBeNull();
    expect(latencyFigures({ region: 'in' })).toBeNull();
    expect(latencyFigures({ time_to_first_audio: 900, llm: 'broken' })).toEqual({ firstAudioMs: 900, turnsMs: [], medianMs: null, p95Ms: null, worstMs: null });
  });
});

describe('the sandbox latency_data', () => {
  const transcript = 'assistant: Hello!\nuser: Hi.\nassistant: When?\nuser: Friday works.\nassistant: Noted.\nuser: Bye.';
  const exec = (data: Record<string, string>, to = '+14155550123') => ({ id: '7c1f4a52-8f4e-4c55-9a77-1f1de1e0a001', to_number: to, recipient_data: data, transcript });

  it('is read back as the turns the rules give: B + 50 per turn, a spike on the last, first audio B + 400', () => {
    expect(turnLatencies('+14155550123', { latency_ms: '1000' }, 3)).toEqual([1000, 1050, 1100]);
    expect(latencyFigures(latencyData(exec({ latency_ms: '1000', latency_spike_ms: '2000' })))).toEqual({
      firstAudioMs: 1400,
      turnsMs: [1000, 1050, 3100],
      medianMs: 1050,
      p95Ms: 3100,
      worstMs: 3100,
    });
  });

  it('varies by number without variables, and is the same for the same call', () => {
    const a = latencyFigures(latencyData(exec({}, '+14155550123')))!;
    const b = latencyFigures(latencyData(exec({}, '+14155550124')))!;
    expect(a.turnsMs[0]).toBe(700 + 30 * ((1 + 4 + 1 + 5 + 5 + 5 + 5 + 0 + 1 + 2 + 3) % 10));
    expect(b.turnsMs[0]).toBe(a.turnsMs[0]! + 30);
    expect(latencyData(exec({}))).toEqual(latencyData(exec({})));
  });
});

describe('latency bounds in a case', () => {
  const p = plan({
    cases: [
      {
        id: 'fast',
        label: 'Answers quickly',
        contact_number: '+14155550123',
        expect: { latency: { first_audio_at_most_ms: 1200, turn_median_at_most_ms: 1500, turn_p95_at_most_ms: 2000, turn_worst_at_most_ms: 2500 } },
      },
    ],
  });

  it('shows each figure beside its bound; p95 over 2000 fails', () => {
    const r = judgeCase(p.cases[0]!, liveExecution({ latency_data: LIVE }));
    expect(r.verdict).toBe('fail');
    expect(r.outcomes).toMatchObject([
      { name: 'latency first audio', passed: true, expected: 'at most 1200 ms', actual: '1180 ms' },
      { name: 'latency turn median', passed: false, expected: 'at most 1500 ms', actual: '1700 ms over 2 turns' },
      { name: 'latency turn p95', passed: false, expected: 'at most 2000 ms', actual: '2400 ms over 2 turns' },
      { name: 'latency turn worst', passed: true, expected: 'at most 2500 ms', actual: '2400 ms over 2 turns' },
    ]);
    expect(r.latency).toMatchObject({ medianMs: 1700 });
  });

  it('an execution without latency_data fails the bound, saying so (the spec has no latency_data)', () => {
    const r = judgeCase(p.cases[0]!, liveExecution());
    expect(r.verdict).toBe('fail');
    expect(r.outcomes[0]).toMatchObject({ passed: false, actual: '(no latency_data)' });
    expect(r.latency).toBeNull();
  });
});

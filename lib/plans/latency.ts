/**
 * Latency figures from an execution's `latency_data` (service-facts.md: `{time_to_first_audio,
 * transcriber|llm|synthesizer: {turns: [{turn, turn_latency: [{sequence_id, …_latency, text}]}]}}`,
 * milliseconds, every part optional), and the bounds a case puts on them. Pure.
 *
 * A turn's latency is the sum over the components present of that component's slowest sequence in the
 * turn (its value is the first number whose key ends in `latency` or starts with `time_to_first`):
 * the time the caller waited from the end of their words to the agent's first audio.
 */
import { z } from '../zod';
import type { LatencyExpectation } from './checks-schema';
import type { CheckedOutcome, LatencyFigure } from './outcome-text';

const ms = z.union([z.number(), z.string().regex(/^\s*\d+(\.\d+)?\s*$/).transform(Number)]).nullish().catch(null);
const part = z
  .looseObject({
    turns: z.array(z.looseObject({ turn: z.unknown(), turn_latency: z.array(z.record(z.string(), z.unknown())).nullish().catch(null) })).nullish().catch(null),
  })
  .nullish()
  .catch(null);
const latencyData = z.looseObject({ time_to_first_audio: ms, transcriber: part, llm: part, synthesizer: part });

export const COMPONENTS = ['transcriber', 'llm', 'synthesizer'] as const;

export interface LatencyFigures {
  firstAudioMs: number | null;
  /** Each turn's latency, in the order of the turns. */
  turnsMs: number[];
  medianMs: number | null;
  p95Ms: number | null;
  worstMs: number | null;
}

const isLatencyKey = (key: string) => /latency$/.test(key) || /^time_to_first/.test(key);

function sequenceMs(seq: Record<string, unknown>): number | null {
  for (const [key, value] of Object.entries(seq)) {
    if (!isLatencyKey(key)) continue;
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
    if (Number.isFinite(n) && n >= 0) return n;
  }
  return null;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The nearest-rank percentile: the smallest value with at least p % of the values at or below it. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** The figures of one execution's latency_data; null when it has none (or none that can be read). */
export function latencyFigures(raw: unknown): LatencyFigures | null {
  if (!raw || typeof raw !== 'object') return null;
  const parsed = latencyData.safeParse(raw);
  if (!parsed.success) return null;
  const data = parsed.data;
  const byTurn = new Map<string, number>();
  for (const name of COMPONENTS) {
    for (const [i, turn] of (data[name]?.turns ?? []).entries()) {
      const key = turn.turn === undefined || turn.turn === null ? `#${i}` : String(turn.turn);
      const slowest = Math.max(-1, ...(turn.turn_latency ?? []).map(sequenceMs).filter((n): n is number => n !== null));
      if (slowest >= 0) byTurn.set(key, (byTurn.get(key) ?? 0) + slowest);
    }
  }
  const turnsMs = [...byTurn.values()].map((n) => Math.round(n * 10) / 10);
  const firstAudioMs = data.time_to_first_audio ?? null;
  if (firstAudioMs === null && !turnsMs.length) return null;
  const worst = turnsMs.length ? Math.max(...turnsMs) : null;
  return { firstAudioMs, turnsMs, medianMs: median(turnsMs), p95Ms: percentile(turnsMs, 95), worstMs: worst };
}

const shown = (n: number) => `${Math.round(n)} ms`;

/** One outcome per bound the case gives: the figure beside the bound. */
export function latencyOutcomes(bounds: LatencyExpectation, figures: LatencyFigures | null): CheckedOutcome[] {
  const out: CheckedOutcome[] = [];
  const turns = figures?.turnsMs.length ?? 0;
  const missing = !figures ? '(no latency_data)' : '(no turns in latency_data)';
  const check = (name: string, figure: LatencyFigure, bound: number | undefined, value: number | null | undefined, note: string) => {
    if (bound === undefined) return;
    const noFirstAudio = value === null && !!figures && name === 'latency first audio';
    out.push({
      name,
      passed: typeof value === 'number' && value <= bound,
      expected: `at most ${shown(bound)}`,
      actual: typeof value === 'number' ? `${shown(value)}${note}` : noFirstAudio ? '(no time_to_first_audio)' : missing,
      check: {
        kind: 'latency',
        figure,
        boundMs: bound,
        valueMs: typeof value === 'number' ? value : null,
        turns,
        missing: typeof value === 'number' ? null : noFirstAudio ? 'firstAudio' : !figures ? 'data' : 'turns',
      },
    });
  };
  const over = ` over ${turns} turn${turns === 1 ? '' : 's'}`;
  check('latency first audio', 'firstAudio', bounds.first_audio_at_most_ms, figures?.firstAudioMs, '');
  check('latency turn median', 'median', bounds.turn_median_at_most_ms, figures?.medianMs, over);
  check('latency turn p95', 'p95', bounds.turn_p95_at_most_ms, figures?.p95Ms, over);
  check('latency turn worst', 'worst', bounds.turn_worst_at_most_ms, figures?.worstMs, over);
  return out;
}

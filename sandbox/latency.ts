/**
 * The sandbox's `latency_data`, in the live shape (service-facts.md): deterministic from the call (its
 * number, its row's variables and its transcript), so a test plan can pass and fail on latency on
 * purpose. Pure. Documented in sandbox/README.md ("Latency follows the row").
 *
 * - Base turn latency B: the row variable `latency_ms` when it is a whole number, else
 *   700 + 30 × (sum of the number's digits mod 10), so 700–970 ms, varying by number.
 * - One turn per caller line of the transcript: turn i (from 1) takes B + 50 × (i − 1) ms, and the last
 *   turn also `latency_spike_ms` when the row gives it. Split as transcriber 30 % (two sequences, an
 *   interim at half and the final), llm 45 %, synthesizer the rest, so the parts add up to the turn.
 * - `time_to_first_audio`: the row variable `first_audio_ms` when given, else B + 400.
 */
import { parseTranscript } from '../lib/executions/transcript';
import { variable } from './persona';

const wholeMs = (text: string | undefined) => (text !== undefined && /^\d{1,6}$/.test(text) ? Number(text) : undefined);

export function baseTurnMs(toNumber: string, data: Record<string, string>): number {
  const given = wholeMs(variable(data, 'latency_ms'));
  if (given !== undefined) return given;
  const digits = [...toNumber.replace(/\D/g, '')].reduce((sum, d) => sum + Number(d), 0);
  return 700 + 30 * (digits % 10);
}

/** The milliseconds of each turn, as the rules above give them. */
export function turnLatencies(toNumber: string, data: Record<string, string>, callerLines: number): number[] {
  const base = baseTurnMs(toNumber, data);
  const spike = wholeMs(variable(data, 'latency_spike_ms')) ?? 0;
  return Array.from({ length: callerLines }, (_, i) => base + 50 * i + (i === callerLines - 1 ? spike : 0));
}

export function latencyData(exec: { id: string; to_number: string; recipient_data: Record<string, string>; transcript: string | null }) {
  const turns = parseTranscript(exec.transcript);
  const callerLines = turns.filter((t) => t.speaker === 'user');
  const agentLines = turns.filter((t) => t.speaker === 'assistant');
  const ms = turnLatencies(exec.to_number, exec.recipient_data, callerLines.length);
  const transcriberMs = ms.map((m) => Math.round(m * 0.3));
  const llmMs = ms.map((m) => Math.round(m * 0.45));
  const firstAudio = wholeMs(variable(exec.recipient_data, 'first_audio_ms')) ?? baseTurnMs(exec.to_number, exec.recipient_data) + 400;
  return {
    stream_id: `MZ${exec.id.replace(/-/g, '').slice(0, 30)}`,
    time_to_first_audio: firstAudio,
    region: 'us-east-1',
    transcriber: {
      time_to_connect: 120,
      turns: callerLines.map((line, i) => ({
        turn: i + 1,
        turn_latency: [
          { sequence_id: 1, audio_to_text_latency: Math.round(transcriberMs[i]! / 2), text: line.text.split(' ').slice(0, 2).join(' ') },
          { sequence_id: 2, audio_to_text_latency: transcriberMs[i]!, text: line.text },
        ],
      })),
    },
    llm: {
      time_to_connect: 80,
      turns: ms.map((_, i) => ({ turn: i + 1, turn_latency: [{ sequence_id: 1, time_to_first_token: llmMs[i]!, text: agentLines[i + 1]?.text ?? '' }] })),
    },
    synthesizer: {
      time_to_connect: 90,
      turns: ms.map((m, i) => ({ turn: i + 1, turn_latency: [{ sequence_id: 1, time_to_first_byte: m - transcriberMs[i]! - llmMs[i]!, text: agentLines[i + 1]?.text ?? '' }] })),
    },
  };
}

/**
 * What a call does, as pure functions (no timers, no state) so the rules are testable on their own:
 * - outcomeFor: which outcome a recipient number gets (by its last four digits, or the wallet);
 * - WALKS / nextPhase: the status walk of each outcome and how long each status lasts;
 * - callResult / fieldsOnEnter: the result fields an execution carries once it enters a status.
 * engine.ts applies these with timers.
 */
import type { KnownExecutionStatus } from '../lib/api/schemas';
import { personaFor, recipientName, type Turn } from './persona';

export type Outcome =
  | 'completed'
  | 'busy'
  | 'no-answer'
  | 'failed'
  | 'voicemail'
  | 'error'
  | 'canceled'
  | 'long'
  | 'balance-low';

/** Test numbers: the recipient's last four digits pick the outcome; anything else completes. */
export const OUTCOME_BY_SUFFIX: Readonly<Record<string, Outcome>> = {
  '1001': 'busy',
  '1002': 'no-answer',
  '1003': 'failed',
  '1004': 'voicemail',
  '1005': 'error',
  '1006': 'canceled',
  '1007': 'long',
};

export function outcomeFor(toNumber: string, opts: { walletEmpty?: boolean } = {}): Outcome {
  // An empty wallet wins over everything: the call is never placed.
  if (opts.walletEmpty) return 'balance-low';
  const digits = toNumber.replace(/\D/g, '');
  return OUTCOME_BY_SUFFIX[digits.slice(-4)] ?? 'completed';
}

export interface Phase {
  status: KnownExecutionStatus;
  /** Real milliseconds spent in this status at speed 1 (divided by the sandbox speed). */
  holdMs: number;
}

/** A long call (1007) stays in progress until stopped, or two sandbox minutes. */
export const LONG_CALL_MS = 120_000;

const p = (status: KnownExecutionStatus, holdMs = 0): Phase => ({ status, holdMs });
// The live service spends 2–3 minutes in call-disconnected; 10 s keeps the sandbox usable.
const answered = (talkMs: number) => [p('queued', 2000), p('initiated', 2000), p('ringing', 4000), p('in-progress', talkMs), p('call-disconnected', 10_000), p('completed')];

export const WALKS: Readonly<Record<Outcome, readonly Phase[]>> = {
  completed: answered(12_000),
  voicemail: answered(6_000),
  long: answered(LONG_CALL_MS),
  busy: [p('queued', 2000), p('initiated', 3000), p('busy')],
  'no-answer': [p('queued', 2000), p('initiated', 2000), p('ringing', 8000), p('no-answer')],
  failed: [p('queued', 2000), p('initiated', 2000), p('failed')],
  error: [p('queued', 2000), p('error')],
  canceled: [p('queued', 2000), p('initiated', 2000), p('ringing', 3000), p('canceled')],
  'balance-low': [p('queued', 2000), p('balance-low')],
};

/** The status a call enters when its batch starts. */
export function firstPhase(outcome: Outcome): Phase {
  return WALKS[outcome][0]!;
}

/**
 * From `status`, the next status of this outcome's walk and how long (at speed 1) the call stays
 * in `status` first. Null when `status` ends the walk or is not part of it (e.g. `stopped`).
 */
export function nextPhase(status: string, outcome: Outcome): { status: KnownExecutionStatus; afterMs: number } | null {
  const walk = WALKS[outcome];
  const i = walk.findIndex((phase) => phase.status === status);
  const next = walk[i + 1];
  if (i < 0 || !next) return null;
  return { status: next.status, afterMs: walk[i]!.holdMs };
}

export interface CostBreakdown {
  llm: number;
  network: number;
  platform: number;
  synthesizer: number;
  transcriber: number;
}

/** Result fields of an execution; null until known. Costs are in cents. */
export interface ResultFields {
  conversation_duration: number | null;
  total_cost: number | null;
  cost_breakdown: CostBreakdown | null;
  transcript: string | null;
  summary: string | null;
  extracted_data: Record<string, string | boolean> | null;
  answered_by_voice_mail: boolean;
  error_message: string | null;
  telephony_duration: number | null;
  hangup_by: string | null;
  hangup_reason: string | null;
  hangup_provider_code: number | null;
  has_recording: boolean;
}

export const EMPTY_RESULT: Readonly<ResultFields> = {
  conversation_duration: null,
  total_cost: null,
  cost_breakdown: null,
  transcript: null,
  summary: null,
  extracted_data: null,
  answered_by_voice_mail: false,
  error_message: null,
  telephony_duration: null,
  hangup_by: null,
  hangup_reason: null,
  hangup_provider_code: null,
  has_recording: false,
};

export interface CallContext {
  agentName: string;
  welcomeMessage?: string | null;
  /** The CSV row's other columns. */
  recipientData: Record<string, string>;
  toNumber: string;
}

export type { Turn } from './persona';

// Provider hangup data, modelled on what telephony providers report.
const HANGUPS: Partial<Record<Outcome, { by: string; reason: string; code: number }>> = {
  completed: { by: 'Callee', reason: 'Normal Hangup', code: 4000 },
  voicemail: { by: 'Caller', reason: 'Normal Hangup', code: 4000 },
  long: { by: 'Caller', reason: 'Max call duration reached', code: 4010 },
  busy: { by: 'Carrier', reason: 'Busy Line', code: 3010 },
  'no-answer': { by: 'Carrier', reason: 'No Answer', code: 3000 },
  failed: { by: 'Carrier', reason: 'Destination Unreachable', code: 2010 },
  canceled: { by: 'Caller', reason: 'Call canceled before answer', code: 1010 },
};

const ERRORS: Partial<Record<Outcome, string>> = {
  failed: 'The telephony provider could not connect the call: Destination Unreachable',
  error: 'An internal error occurred while placing the call',
  'balance-low': 'Insufficient wallet balance to place the call. Please recharge your wallet.',
};

/** `{name}` and `{{name}}` in the welcome message are filled from the CSV row, as prompt variables are. */
function fill(text: string, data: Record<string, string>): string {
  return text.replace(/\{\{?\s*(\w+)\s*\}?\}/g, (whole, key: string) => data[key] ?? whole);
}

export function conversationTurns(outcome: Outcome, ctx: CallContext): Turn[] {
  const name = recipientName(ctx.recipientData);
  const hello = ctx.welcomeMessage
    ? fill(ctx.welcomeMessage, ctx.recipientData)
    : `Hello! This is Ava calling from ${ctx.agentName}. ${name ? `Am I speaking with ${name}?` : 'Do you have a moment?'}`;
  const a = (text: string): Turn => ({ role: 'assistant', text });
  const u = (text: string): Turn => ({ role: 'user', text });
  if (outcome === 'voicemail') {
    return [
      a(hello),
      u(`Hi, you've reached ${name ?? 'this number'}. I can't take your call right now, please leave a message after the tone.`),
      a(`Hi${name ? ` ${name}` : ''}, this is Ava from ${ctx.agentName}. Please call us back when convenient. Thank you!`),
    ];
  }
  const persona = personaFor(ctx.recipientData);
  const turns = [
    a(hello),
    u(name ? `Yes, this is ${name}. Who's calling?` : "Yes, I have a moment. Who's calling?"),
    a(`I'm Ava, an assistant for ${ctx.agentName}. I'm calling to see whether you'd like a short walkthrough of our new plan.`),
    ...persona.reply,
  ];
  if (outcome === 'long' && persona.intent !== 'hangup') {
    turns.push(
      a('Noted. Before I let you go, is there anything you would like to know about pricing?'),
      u('Yes, how does the monthly plan compare with the yearly one?'),
      a('The yearly plan works out two months cheaper, and you can switch at any time.'),
      u('Good to know, thanks.'),
    );
  }
  turns.push(...persona.goodbye);
  return turns;
}

export const formatTranscript = (turns: readonly Turn[]) => turns.map((t) => `${t.role}: ${t.text}`).join('\n');

/** Nominal call length in seconds: deterministic per number so repeated runs agree. */
export function talkSeconds(outcome: Outcome, toNumber: string): number {
  if (outcome === 'voicemail') return 9;
  const digits = toNumber.replace(/\D/g, '');
  const spread = [...digits].reduce((sum, d) => sum + Number(d), 0) % 30;
  return outcome === 'long' ? 125 + spread : 35 + spread;
}

/** Costs in cents, per minute of conversation. */
export function costFor(seconds: number): { breakdown: CostBreakdown; total: number } {
  const minutes = seconds / 60;
  const r = (cents: number) => Math.round(cents * minutes * 100) / 100;
  const breakdown = { llm: r(1.5), network: r(0.5), platform: r(2), synthesizer: r(2.5), transcriber: r(1) };
  const total = Math.round(Object.values(breakdown).reduce((s, v) => s + v, 0) * 100) / 100;
  return { breakdown, total };
}

const ZERO_COST: CostBreakdown = { llm: 0, network: 0, platform: 0, synthesizer: 0, transcriber: 0 };

/** The fields of a finished call of this outcome (the terminal status of its walk). */
export function callResult(outcome: Outcome, ctx: CallContext): ResultFields {
  const hangup = HANGUPS[outcome];
  const base: ResultFields = {
    ...EMPTY_RESULT,
    conversation_duration: 0,
    total_cost: 0,
    cost_breakdown: { ...ZERO_COST },
    telephony_duration: 0,
    error_message: ERRORS[outcome] ?? null,
    hangup_by: hangup?.by ?? null,
    hangup_reason: hangup?.reason ?? null,
    hangup_provider_code: hangup?.code ?? null,
  };
  if (outcome !== 'completed' && outcome !== 'voicemail' && outcome !== 'long') return base;
  const voicemail = outcome === 'voicemail';
  // The row's variables decide how the conversation goes (sandbox/persona.ts); voicemail ignores them.
  const persona = personaFor(ctx.recipientData);
  const nominal = talkSeconds(outcome, ctx.toNumber);
  const seconds = voicemail ? nominal : persona.seconds(nominal);
  const cost = costFor(seconds);
  return {
    ...base,
    conversation_duration: seconds,
    total_cost: cost.total,
    cost_breakdown: cost.breakdown,
    telephony_duration: seconds + 3, // the line is up a little longer than the conversation
    transcript: formatTranscript(conversationTurns(outcome, ctx)),
    summary: voicemail ? 'The call reached voicemail; the agent left a message asking for a call back.' : persona.summary,
    extracted_data: voicemail ? { voicemail: true, interested: false } : persona.extracted,
    hangup_by: (!voicemail && persona.hangupBy) || base.hangup_by,
    answered_by_voice_mail: voicemail,
    has_recording: true,
  };
}

/**
 * The result fields an execution takes when it enters `status`. In `call-disconnected` the line is
 * down but the platform is still finalizing: duration, cost, recording and extracted data are
 * null/0 until `completed` fills them (spec 2.2).
 */
export function fieldsOnEnter(status: string, outcome: Outcome, ctx: CallContext): Partial<ResultFields> {
  const final = callResult(outcome, ctx);
  if (status === 'call-disconnected') {
    return {
      ...final,
      conversation_duration: null,
      total_cost: 0,
      cost_breakdown: null,
      telephony_duration: null,
      extracted_data: null,
      summary: null,
      has_recording: false,
    };
  }
  const walk = WALKS[outcome];
  if (walk[walk.length - 1]!.status === status) return final;
  return {};
}

/** Fields of a call stopped by the API: partial conversation if it was answered. */
export function stoppedResult(outcome: Outcome, ctx: CallContext, answeredSeconds: number | null): ResultFields {
  if (answeredSeconds === null) {
    return { ...EMPTY_RESULT, conversation_duration: 0, total_cost: 0, cost_breakdown: { ...ZERO_COST }, telephony_duration: 0, hangup_by: 'API', hangup_reason: 'Stopped by user' };
  }
  const seconds = Math.max(1, Math.round(answeredSeconds));
  const cost = costFor(seconds);
  return {
    ...EMPTY_RESULT,
    conversation_duration: seconds,
    total_cost: cost.total,
    cost_breakdown: cost.breakdown,
    telephony_duration: seconds,
    transcript: formatTranscript(conversationTurns(outcome, ctx).slice(0, 2)),
    hangup_by: 'API',
    hangup_reason: 'Stopped by user',
    hangup_provider_code: 4000,
  };
}

export interface LogEntry {
  created_at: string;
  type: 'request' | 'response';
  component: 'transcriber' | 'llm' | 'synthesizer';
  provider: string;
  data: string;
}

export interface Providers {
  transcriber: string;
  llm: string;
  synthesizer: string;
}

/**
 * The component log of a call, consistent with its transcript: each user turn is a transcriber
 * response and an llm request; each assistant turn an llm response and a synthesizer round trip.
 */
export function logEntries(transcript: string | null, answeredAtMs: number, providers: Providers): LogEntry[] {
  if (!transcript) return [];
  const entries: LogEntry[] = [];
  let t = answeredAtMs;
  const at = () => new Date((t += 700)).toISOString();
  let history: Turn[] = [];
  for (const line of transcript.split('\n')) {
    const m = /^(assistant|user): (.*)$/.exec(line);
    if (!m) continue;
    const turn: Turn = { role: m[1] as Turn['role'], text: m[2]! };
    if (turn.role === 'user') {
      entries.push({ created_at: at(), type: 'response', component: 'transcriber', provider: providers.transcriber, data: turn.text });
      history = [...history, turn];
      entries.push({
        created_at: at(),
        type: 'request',
        component: 'llm',
        provider: providers.llm,
        data: JSON.stringify(history.map((h) => ({ role: h.role, content: h.text }))),
      });
    } else {
      if (history.length > 0) entries.push({ created_at: at(), type: 'response', component: 'llm', provider: providers.llm, data: turn.text });
      history = [...history, turn];
      entries.push({ created_at: at(), type: 'request', component: 'synthesizer', provider: providers.synthesizer, data: turn.text });
      entries.push({
        created_at: at(),
        type: 'response',
        component: 'synthesizer',
        provider: providers.synthesizer,
        data: `audio/wav ${turn.text.length * 640} bytes`,
      });
    }
  }
  return entries;
}

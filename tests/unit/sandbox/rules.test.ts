// Pure rules of the sandbox, without a server: outcomes, walks, result fields, time, CSV, WAV, CLI.
import { describe, expect, it } from 'vitest';
import { execution, executionLog, isTerminalExecutionStatus } from '../../../lib/api/schemas';
import { checkRecordingSignature, makeWav, presignRecording } from '../../../sandbox/audio';
import { RateLimiter } from '../../../sandbox/auth';
import {
  WALKS,
  callResult,
  fieldsOnEnter,
  firstPhase,
  logEntries,
  nextPhase,
  outcomeFor,
  type CallContext,
  type Outcome,
} from '../../../sandbox/calls';
import { CliError, parseCliArgs } from '../../../sandbox/cli';
import { isLoopback } from '../../../sandbox/control';
import { csvRecords, parseCsv } from '../../../sandbox/csv';
import { ApiError } from '../../../sandbox/errors';
import { resolveOptions } from '../../../sandbox/server';
import { checkScheduledAt, parseIsoOffset } from '../../../sandbox/time';

const ctx: CallContext = { agentName: 'Sales', welcomeMessage: 'Hello {name}!', recipientData: { name: 'Grace' }, toNumber: '+14155550123' };

describe('outcomeFor', () => {
  it('picks the outcome from the last four digits', () => {
    expect(outcomeFor('+14155551001')).toBe('busy');
    expect(outcomeFor('+14155551002')).toBe('no-answer');
    expect(outcomeFor('+14155551003')).toBe('failed');
    expect(outcomeFor('+14155551004')).toBe('voicemail');
    expect(outcomeFor('+14155551005')).toBe('error');
    expect(outcomeFor('+14155551006')).toBe('canceled');
    expect(outcomeFor('+14155551007')).toBe('long');
    expect(outcomeFor('+14155550123')).toBe('completed');
  });
  it('an empty wallet ends every call balance-low', () => {
    expect(outcomeFor('+14155550123', { walletEmpty: true })).toBe('balance-low');
    expect(outcomeFor('+14155551001', { walletEmpty: true })).toBe('balance-low');
  });
});

describe('status walks', () => {
  it('an answered call walks queued → initiated → ringing → in-progress → call-disconnected → completed', () => {
    const seen: string[] = [firstPhase('completed').status];
    for (let next = nextPhase(seen[0]!, 'completed'); next; next = nextPhase(next.status, 'completed')) seen.push(next.status);
    expect(seen).toEqual(['queued', 'initiated', 'ringing', 'in-progress', 'call-disconnected', 'completed']);
  });
  it('holds each status as documented (speed 1)', () => {
    expect(nextPhase('queued', 'completed')).toEqual({ status: 'initiated', afterMs: 2000 });
    expect(nextPhase('ringing', 'completed')).toEqual({ status: 'in-progress', afterMs: 4000 });
    expect(nextPhase('in-progress', 'completed')).toEqual({ status: 'call-disconnected', afterMs: 12_000 });
    expect(nextPhase('call-disconnected', 'completed')).toEqual({ status: 'completed', afterMs: 10_000 });
    expect(nextPhase('in-progress', 'long')).toEqual({ status: 'call-disconnected', afterMs: 120_000 });
  });
  it('every walk starts queued and ends in a terminal status, nothing after it', () => {
    const ends: Record<Outcome, string> = {
      completed: 'completed',
      voicemail: 'completed',
      long: 'completed',
      busy: 'busy',
      'no-answer': 'no-answer',
      failed: 'failed',
      error: 'error',
      canceled: 'canceled',
      'balance-low': 'balance-low',
    };
    for (const [outcome, walk] of Object.entries(WALKS) as Array<[Outcome, typeof WALKS.completed]>) {
      expect(walk[0]!.status).toBe('queued');
      const last = walk[walk.length - 1]!.status;
      expect(last).toBe(ends[outcome]);
      expect(isTerminalExecutionStatus(last)).toBe(true);
      expect(nextPhase(last, outcome)).toBeNull();
      expect(walk.slice(0, -1).every((p) => !isTerminalExecutionStatus(p.status))).toBe(true);
    }
    expect(nextPhase('stopped', 'completed')).toBeNull();
  });
});

describe('result fields', () => {
  it('call-disconnected has null duration, cost, recording and extracted data; completed fills them', () => {
    const soft = fieldsOnEnter('call-disconnected', 'completed', ctx);
    expect(soft.conversation_duration).toBeNull();
    expect(soft.total_cost === 0 || soft.total_cost === null).toBe(true);
    expect(soft.has_recording).toBe(false);
    expect(soft.extracted_data).toBeNull();
    const done = fieldsOnEnter('completed', 'completed', ctx);
    expect(done.conversation_duration).toBeGreaterThan(0);
    expect(done.total_cost).toBeGreaterThan(0);
    expect(done.has_recording).toBe(true);
    expect(done.extracted_data).toMatchObject({ interested: true, callback_time: 'tomorrow 10am' });
    expect(done.transcript).toMatch(/^assistant: Hello Grace!\nuser: /);
    expect(done.transcript!.split('\n').length).toBeGreaterThanOrEqual(6);
    expect(fieldsOnEnter('ringing', 'completed', ctx)).toEqual({});
  });
  it('costs are consistent: total is the sum of the breakdown (cents)', () => {
    const r = callResult('completed', ctx);
    const sum = Object.values(r.cost_breakdown!).reduce((s, v) => s + v, 0);
    expect(r.total_cost).toBeCloseTo(sum, 2);
  });
  it('voicemail is answered_by_voice_mail with a short duration; failures carry hangup data or an error', () => {
    const vm = callResult('voicemail', ctx);
    expect(vm.answered_by_voice_mail).toBe(true);
    expect(vm.conversation_duration).toBeLessThan(15);
    expect(callResult('failed', ctx)).toMatchObject({ hangup_reason: 'Destination Unreachable', hangup_provider_code: 2010 });
    expect(callResult('busy', ctx)).toMatchObject({ hangup_reason: 'Busy Line', conversation_duration: 0 });
    expect(callResult('balance-low', ctx).error_message).toMatch(/balance/i);
    expect(callResult('error', ctx).error_message).toBeTruthy();
  });
  it('the log is consistent with the transcript and parses with the schema', () => {
    const r = callResult('completed', ctx);
    const entries = logEntries(r.transcript, Date.now(), { transcriber: 'deepgram', llm: 'openai', synthesizer: 'polly' });
    expect(executionLog.safeParse({ data: entries }).success).toBe(true);
    const userTurns = r.transcript!.split('\n').filter((l) => l.startsWith('user: ')).map((l) => l.slice(6));
    const heard = entries.filter((e) => e.component === 'transcriber').map((e) => e.data);
    expect(heard).toEqual(userTurns);
    const spoken = entries.filter((e) => e.component === 'synthesizer' && e.type === 'request').map((e) => e.data);
    expect(spoken).toEqual(r.transcript!.split('\n').filter((l) => l.startsWith('assistant: ')).map((l) => l.slice(11)));
  });
  it('a record built from the result parses with the execution schema', () => {
    const r = callResult('completed', ctx);
    expect(execution.safeParse({ id: 'x', status: 'completed', ...r }).success).toBe(true);
  });
});

describe('scheduled_at rules (real clock)', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('Z suffix → 500 internal server error', () => {
    const r = checkScheduledAt('2026-11-21T12:05:00Z', now);
    expect(r).toBeInstanceOf(ApiError);
    expect((r as ApiError).status).toBe(500);
    expect((r as ApiError).message).toBe('internal server error');
  });
  it('under 2 minutes → 400 with the 2-minute message; 2 minutes or more passes', () => {
    const r = checkScheduledAt('2026-11-21T12:01:30+00:00', now) as ApiError;
    expect(r.status).toBe(400);
    expect(r.message).toMatch(/at least 2 minutes in the future/);
    expect(checkScheduledAt('2026-11-21T12:02:00+00:00', now)).toEqual(new Date(now + 120_000));
    expect(checkScheduledAt('2026-11-21T17:35:00+05:30', now)).toEqual(new Date('2026-11-21T12:05:00Z'));
  });
  it('unparseable → 400 parse error', () => {
    for (const bad of ['garbage', '2026-13-01T00:00:00+00:00', '2026-02-30T10:00:00+00:00', '']) {
      const r = checkScheduledAt(bad, now) as ApiError;
      expect(r.status, bad).toBe(400);
      expect(r.message).toMatch(/Invalid isoformat string/);
    }
    expect(parseIsoOffset('2026-11-21T12:00:00.123456+00:00')?.toISOString()).toBe('2026-11-21T12:00:00.123Z');
  });
});

describe('CSV', () => {
  it('reads quotes, CRLF, BOM and skips blank lines', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, ""y""",2\r\n\r\n')).toEqual([['a', 'b'], ['x, "y"', '2']]);
    const { header, records } = csvRecords('contact_number,name\n+14155550123,Bob\n');
    expect(header).toEqual(['contact_number', 'name']);
    expect(records).toEqual([{ contact_number: '+14155550123', name: 'Bob' }]);
  });
});

describe('recordings', () => {
  it('makes a valid PCM WAV (RIFF/WAVE, 8 kHz 16-bit mono, 2 s)', () => {
    const wav = Buffer.from(makeWav());
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.readUInt16LE(20)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(8000);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.toString('ascii', 36, 40)).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(32_000);
  });
  it('presigned URLs expire and refuse tampering', () => {
    const url = new URL(presignRecording('http://x', 'secret', 'id1', 0));
    const exp = url.searchParams.get('expires')!;
    const sig = url.searchParams.get('signature')!;
    expect(checkRecordingSignature('secret', 'id1', exp, sig, 1000)).toBe('ok');
    expect(checkRecordingSignature('secret', 'id1', exp, sig, 2 * 3600_000)).toBe('expired');
    expect(checkRecordingSignature('secret', 'id2', exp, sig, 1000)).toBe('invalid');
    expect(checkRecordingSignature('secret', 'id1', String(Number(exp) + 1), sig, 1000)).toBe('invalid');
  });
});

describe('rate limiter, loopback, options', () => {
  it('allows N per minute per key, then says how long to wait', () => {
    const rl = new RateLimiter(2);
    expect(rl.hit('k', 0).ok).toBe(true);
    expect(rl.hit('k', 10_000).ok).toBe(true);
    expect(rl.hit('other', 10_000).ok).toBe(true);
    expect(rl.hit('k', 20_000)).toEqual({ ok: false, retryAfterSeconds: 40 });
    expect(rl.hit('k', 60_001).ok).toBe(true);
  });
  it('recognises loopback addresses only', () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopback('192.168.1.2')).toBe(false);
    expect(isLoopback(undefined)).toBe(false);
  });
  it('refuses invalid programmatic options', () => {
    expect(() => resolveOptions({ speed: 0 })).toThrow(/speed/);
    expect(() => resolveOptions({ routes: 'v3' as never })).toThrow(/routes/);
    expect(() => resolveOptions({ port: 70000 })).toThrow(/port/);
    expect(() => resolveOptions({ rateLimitPerMinute: 0 })).toThrow(/rateLimitPerMinute/);
    expect(resolveOptions()).toMatchObject({ port: 0, host: '127.0.0.1', speed: 1, routes: 'both', rateLimitPerMinute: 1000 });
  });
});

describe('CLI arguments', () => {
  it('parses every option in both forms', () => {
    expect(parseCliArgs(['--port', '9000', '--host=0.0.0.0', '--speed', '60', '--routes', 'live', '--rate-limit', '50'])).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      speed: 60,
      routes: 'live',
      rateLimitPerMinute: 50,
    });
    expect(parseCliArgs([])).toMatchObject({ port: 8787, host: '127.0.0.1', speed: 1, routes: 'both', rateLimitPerMinute: 1000 });
  });
  it('refuses bad values with clear errors', () => {
    expect(() => parseCliArgs(['--port', 'abc'])).toThrow(/--port must be an integer/);
    expect(() => parseCliArgs(['--port', '70000'])).toThrow(CliError);
    expect(() => parseCliArgs(['--speed', '-1'])).toThrow(/--speed must be a number above 0/);
    expect(() => parseCliArgs(['--routes', 'v3'])).toThrow(/spec, live or both/);
    expect(() => parseCliArgs(['--rate-limit', '0'])).toThrow(/positive integer/);
    expect(() => parseCliArgs(['--port'])).toThrow(/needs a value/);
    expect(() => parseCliArgs(['--nope'])).toThrow(/unknown option/);
  });
});

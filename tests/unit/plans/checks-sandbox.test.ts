/**
 * Checks on what was said and how fast, end to end: a plan run through runPlan (the command line's
 * runner) against the real sandbox over HTTP, whose latency_data follows the row's variables
 * (sandbox/latency.ts). Each case's verdict is predicted from the sandbox's documented rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { clockReadingFetch } from '../../../lib/api/clock';
import { toJson, toJUnit } from '../../../lib/plans/export';
import { runPlan, type PlanClient } from '../../../lib/plans/run';
import { OWNER_KEY } from '../../../sandbox/keys';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { plan } from './fixtures';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 600 });
});
afterAll(() => sb.close());

const client = (): PlanClient => {
  const { fetch: reading, clock } = clockReadingFetch();
  return Object.assign(createClient({ baseUrl: sb.url, apiKey: OWNER_KEY, fetch: reading }), clock);
};

const callback = { name: 'Ann', intent: 'callback', callback_time: 'Friday at 3pm' };
const fastBounds = { first_audio_at_most_ms: 1200, turn_median_at_most_ms: 1000, turn_p95_at_most_ms: 1500, turn_worst_at_most_ms: 1500 };
const saidRight = {
  in_order: [
    { speaker: 'agent' as const, says: 'when would be a good time' },
    { speaker: 'caller' as const, says: 'works  FOR me' },
    { speaker: 'agent' as const, matches: "i've noted \\w+ at \\d+(am|pm)" },
  ],
  count: [{ speaker: 'agent' as const, matches: 'sorry|repeat', at_most: 0 }],
  within_first_turns: { turns: 1, says: [{ speaker: 'agent' as const, says: 'this is Ava' }] },
  no_repeated_agent_lines: true as const,
  agent_ended_call: false,
  agent_never_reveals: true as const,
};

const thePlan = () =>
  plan({
    agent_id: SEED.A.agents.sales,
    sensitive_patterns: [{ name: 'weekday', pattern: '\\bfriday\\b' }],
    cases: [
      // latency_ms 600: turns 600, 650, 700, 750; first audio 1000. Everything holds.
      { id: 'fast', label: 'Quick and in order', contact_number: '+14155550401', variables: { ...callback, callback_time: 'Monday at 9am', latency_ms: '600' }, expect: { latency: fastBounds, transcript: saidRight } },
      // latency_ms 1200 and a 3000 ms spike: turns 1200, 1250, 1300, 4350; first audio 1600.
      { id: 'slow', label: 'Too slow', contact_number: '+14155550402', variables: { ...callback, latency_ms: '1200', latency_spike_ms: '3000' }, expect: { latency: fastBounds } },
      // The order turned round, and the plan's own pattern: the agent says "Friday" (the fast case's agent
    // says "Monday", so its `agent_never_reveals: true`, built-ins and the plan's pattern, holds).
      {
        id: 'wrong-order',
        label: 'Order and a forbidden word',
        contact_number: '+14155550403',
        variables: callback,
        expect: { transcript: { in_order: [saidRight.in_order[2]!, saidRight.in_order[0]!], agent_never_reveals: ['weekday'] } },
      },
      // Voicemail: the agent leaves its message and hangs up (telephony hangup_by "Caller").
      { id: 'voicemail', label: 'Leaves a message', contact_number: '+14155551004', expect: { status: 'voicemail', transcript: { agent_ended_call: true, says: [{ speaker: 'caller', says: 'leave a message' }] } } },
    ],
  });

describe('checks on what was said and how fast, through runPlan against the sandbox', () => {
  it('passes and fails as the sandbox rules predict, with the figures beside the bounds in every export', async () => {
    const out = await runPlan(thePlan(), client(), { maxWaitMs: 60_000 });
    expect(out.ended).toBe('finished');
    const byId = Object.fromEntries(out.result.cases.map((c) => [c.caseId, c]));
    expect(byId.fast!.outcomes.filter((o) => !o.passed)).toEqual([]);
    expect(Object.fromEntries(out.result.cases.map((c) => [c.caseId, c.verdict]))).toEqual({ fast: 'pass', slow: 'fail', 'wrong-order': 'fail', voicemail: 'pass' });

    expect(byId.fast!.latency).toEqual({ firstAudioMs: 1000, turnsMs: [600, 650, 700, 750], medianMs: 675, p95Ms: 750, worstMs: 750 });
    expect(byId.fast!.outcomes.filter((o) => o.name.startsWith('transcript in order'))[0]).toMatchObject({ passed: true, actual: 'turns 5 → 6 → 7' });

    const slow = byId.slow!.outcomes.map((o) => [o.name, o.passed, o.expected, o.actual]);
    expect(slow).toEqual([
      ['latency first audio', false, 'at most 1200 ms', '1600 ms'],
      ['latency turn median', false, 'at most 1000 ms', '1275 ms over 4 turns'],
      ['latency turn p95', false, 'at most 1500 ms', '4350 ms over 4 turns'],
      ['latency turn worst', false, 'at most 1500 ms', '4350 ms over 4 turns'],
    ]);

    const wrong = byId['wrong-order']!.outcomes;
    expect(wrong[0]).toMatchObject({ name: 'transcript in order', passed: false });
    expect(wrong[1]).toMatchObject({ name: 'agent never reveals', passed: false, actual: expect.stringMatching(/^weekday at turn 7 \(agent\): "Perfect, I've noted Friday at 3pm/) });

    expect(byId.voicemail!.outcomes.find((o) => o.name === 'agent ended the call')).toMatchObject({ passed: true, actual: 'the agent: hangup_by "Caller" (telephony)' });

    // The exports carry the figures beside the bounds.
    expect(toJUnit(out.result)).toContain('latency turn median: expected at most 1000 ms, got 1275 ms over 4 turns');
    const json = JSON.parse(toJson(out.result));
    expect(json.cases[1].latency).toMatchObject({ medianMs: 1275, worstMs: 4350 });
  });
});

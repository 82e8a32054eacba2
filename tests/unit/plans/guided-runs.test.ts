/**
 * A guided run in the background, against the real sandbox: started from the side panel's request (one
 * case, to the tester's number), marked while the run is followed, the marks kept with the run in
 * storage (a reopened panel reads them back) and joined into its verdict.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { plansHandlers } from '../../../lib/background/handlers/plans';
import { InputError } from '../../../lib/background/input-error';
import { planRuns } from '../../../lib/background/plan-runs';
import { planStore } from '../../../lib/background/plan-store';
import { uiRequest } from '../../../lib/messages';
import { guidedResult } from '../../../lib/plans/guided';
import { readRuns } from '../../../lib/plans/store';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { SEED } from '../../../sandbox/seed';
import { waitFor } from '../../../sandbox/testing';
import { plan } from './fixtures';

const sandbox = vi.hoisted(() => ({ url: '' }));
vi.mock('../../../lib/background/service', async (original) => {
  const real = await original<typeof import('../../../lib/background/service')>();
  return { ...real, currentClient: async () => real.clientFor(sandbox.url, 'va_test_owner') };
});
vi.mock('../../../lib/background/key-store', () => ({
  originOf: (baseUrl: string) => new URL(baseUrl).origin,
  readKeyFor: async (origin: string) => ({ origin, key: 'va_test_owner', remember: true }),
}));

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 600 });
  sandbox.url = sb.url;
});
afterAll(async () => {
  planRuns().dispose();
  await planRuns().idle();
  await sb.close();
});
beforeEach(() => fakeBrowser.reset());

const ctx = { calls: null as never, openPanel: async () => undefined, now: Date.now };
const script = [{ say: 'Friday at 3pm works for me' }, { silent: 8 }, { hang_up: true as const }];
const thePlan = plan({
  agent_id: SEED.A.agents.sales,
  cases: [
    { id: 'plain', label: 'No script', contact_number: '+14155550123' },
    { id: 'friday', label: 'Books Friday', contact_number: '+14155550123', variables: { intent: 'callback', callback_time: 'Friday at 3pm' }, expect: { status: 'completed' }, caller_script: script },
  ],
});
const stored = async (id: string) => (await planStore.runs()).find((r) => r.id === id);
const mark = (runId: string, step: number, m: 'done' | 'wrong' | null, note = '', atMs = 1000) =>
  plansHandlers['plans/mark-step']({ type: 'plans/mark-step', runId, step, mark: m, note, atMs }, ctx);

describe('guided runs in the background', () => {
  it('calls the tester, keeps marks given while the run is followed, and a wrong step fails the case with its note', async () => {
    await plansHandlers['plans/save']({ type: 'plans/save', planId: 'p1', plan: thePlan }, ctx);
    await plansHandlers['plans/run-guided']({ type: 'plans/run-guided', planId: 'p1', runId: 'g1', caseId: 'friday', toNumber: '+14155550188' }, ctx);
    const started = (await stored('g1'))!;
    expect(started.plan.cases.map((c) => [c.id, c.contact_number])).toEqual([['friday', '+14155550188']]);
    expect(started.guided).toEqual({ caseId: 'friday', toNumber: '+14155550188', marks: [] });

    // Marked while the background steps the run: each of its saves keeps the stored marks.
    await mark('g1', 0, 'done', '', 4000);
    await mark('g1', 1, 'wrong', '  The agent spoke over my silence  ', 19_000);
    const done = await waitFor(async () => ((await stored('g1'))?.result ? stored('g1') : undefined), { timeoutMs: 20_000, what: 'the guided run to end' });
    await mark('g1', 2, 'done', '', 30_000);

    // A reopened panel reads the run back from storage: the marks are there, schema-checked.
    const again = (await stored('g1'))!;
    expect(again.guided!.marks).toEqual([
      { step: 0, mark: 'done', note: '', atMs: 4000 },
      { step: 1, mark: 'wrong', note: 'The agent spoke over my silence', atMs: 19_000 },
      { step: 2, mark: 'done', note: '', atMs: 30_000 },
    ]);
    expect(done!.result!.verdict).toBe('pass');
    const joined = guidedResult(again.result!, again.plan.cases[0]!.caller_script, again.guided!);
    expect(joined.verdict).toBe('fail');
    expect(joined.cases[0]!.outcomes.filter((o) => !o.passed)).toMatchObject([
      { name: 'caller script step 2', passed: false, expected: 'stay silent 8 s', actual: 'wrong at 0:19: The agent spoke over my silence' },
    ]);

    // A mark cleared is gone.
    await mark('g1', 1, null);
    expect((await stored('g1'))!.guided!.marks.map((m) => m.step)).toEqual([0, 2]);
  });

  it('refuses a case without a script, a run that is not guided, and a step past the script', async () => {
    await plansHandlers['plans/save']({ type: 'plans/save', planId: 'p1', plan: thePlan }, ctx);
    await expect(plansHandlers['plans/run-guided']({ type: 'plans/run-guided', planId: 'p1', runId: 'g2', caseId: 'plain', toNumber: '+14155550188' }, ctx)).rejects.toThrow(
      'This case has no caller script to guide a call with.',
    );
    await plansHandlers['plans/run-guided']({ type: 'plans/run-guided', planId: 'p1', runId: 'g3', caseId: 'friday', toNumber: '+14155550188' }, ctx);
    await expect(mark('g3', 3, 'done')).rejects.toThrow('The caller script has 3 steps.');
    await plansHandlers['plans/run']({ type: 'plans/run', planId: 'p1', runId: 'r1' }, ctx);
    await expect(mark('r1', 0, 'done')).rejects.toBeInstanceOf(InputError);
  });

  it('a stored run whose marks do not parse is kept aside, not shown', () => {
    const run = { id: 'x', planId: 'p', plan: thePlan, baseUrl: 'http://127.0.0.1:1', phase: 'finished', createdAt: 1, createAttempts: 1, scheduleAttempts: 1, batchId: null, follow: null, nextPollAt: null, stopRequested: false, lastError: null, result: null, finishedAt: 1 };
    const good = readRuns({ version: 1, runs: [{ ...run, guided: { caseId: 'friday', toNumber: '+1', marks: [{ step: 0, mark: 'done', note: '', atMs: 0 }] } }] });
    expect(good.items).toHaveLength(1);
    const bad = readRuns({ version: 1, runs: [{ ...run, guided: { caseId: 'friday', toNumber: '+1', marks: [{ step: 0, mark: 'maybe', atMs: 0 }] } }] });
    expect(bad.items).toHaveLength(0);
    expect(bad.keepAside).toHaveLength(1);
  });
});

describe('the guided messages, as the background parses them', () => {
  it('accepts a mark and a guided start written right; refuses a bad mark, a long note, a number not in E.164', () => {
    const markOk = { type: 'plans/mark-step', runId: 'g1', step: 1, mark: 'wrong', note: 'Talked over me', atMs: 19_000 };
    expect(uiRequest.safeParse(markOk).success).toBe(true);
    expect(uiRequest.safeParse({ ...markOk, mark: null }).success).toBe(true);
    expect(uiRequest.safeParse({ ...markOk, mark: 'maybe' }).success).toBe(false);
    expect(uiRequest.safeParse({ ...markOk, note: 'x'.repeat(201) }).success).toBe(false);
    expect(uiRequest.safeParse({ ...markOk, step: 50 }).success).toBe(false);
    expect(uiRequest.safeParse({ ...markOk, extra: 1 }).success).toBe(false);
    const start = { type: 'plans/run-guided', planId: 'p1', runId: 'g1', caseId: 'friday', toNumber: '+14155550188' };
    expect(uiRequest.safeParse(start).success).toBe(true);
    expect(uiRequest.safeParse({ ...start, toNumber: '4155550188' }).success).toBe(false);
  });
});

/**
 * Issue 21 §1, §2, §4 end to end: the command line (lib/plans/cli.ts main → runPlan) against the real
 * sandbox over HTTP. A plan with `repeat: 3` goes out as ONE batch of a row per repeat; the calls that
 * never connected go out again as a second placement once the first batch is over
 * (`retry_no_connection`), reported apart; a later run against the first one's JSON (`--baseline`)
 * exits 3 on a pass → fail flip and lists the case that was already failing apart.
 * The sandbox chooses each call's outcome by the dialled number (docs/sandbox.md: …1001 is busy).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseStringPromise } from 'xml2js';
import { main } from '../../../lib/plans/cli';
import { OWNER_KEY } from '../../../sandbox/keys';
import { SEED } from '../../../sandbox/seed';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { call } from '../../../sandbox/testing';

vi.setConfig({ testTimeout: 60_000 });

let sb: Sandbox;
let dir: string;
beforeAll(async () => {
  // Speed 600: the two-minute wait before each batch's start is 0.2 s.
  sb = await startSandbox({ port: 0, speed: 600 });
  dir = mkdtempSync(join(tmpdir(), 'qa-repeats-'));
});
afterAll(() => sb.close());

const planFile = (name: string, callbackExpect: Record<string, unknown>) => {
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      format: 'voice-agent-test-plan',
      version: 1,
      name: 'Repeats on the sandbox',
      agent_id: SEED.A.agents.sales,
      repeat: 3,
      retry_no_connection: 1,
      cases: [
        { id: 'callback', label: 'Books a call back', contact_number: '+14155550123', variables: { name: 'Ann', intent: 'callback', callback_time: 'Friday at 3pm' }, expect: callbackExpect },
        // Written wrong on purpose: the agent says no here, the case expects yes.
        { id: 'declines', label: 'Says yes (it does not)', contact_number: '+14155550124', variables: { name: 'Bo', intent: 'decline' }, expect: { extracted: { interested: { equals: true } } } },
        { id: 'busy-line', label: 'A line that is always busy', contact_number: '+14155551001', gate: 'advisory', expect: { status: 'completed' } },
      ],
    }),
  );
  return file;
};

async function qa(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { VOICE_AGENT_API_KEY: OWNER_KEY }, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}
const get = async (path: string) => (await call(sb.url, 'GET', path)).body;

describe('a repeat plan from the command line, against the sandbox', () => {
  it('one batch of a row per repeat; a second placement for the calls that never connected; then the gate against it as baseline', async () => {
    const first = join(dir, 'first.json');
    const junit = join(dir, 'first.xml');
    const r = await qa(['run', planFile('plan.json', { status: 'completed', extracted: { interested: { equals: true } } }), '--base-url', sb.url, '--json', first, '--junit', junit]);
    // The blocking case `declines` fails every call: exit 1. The advisory busy line does not decide it.
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/batch [0-9a-f]{32} created: 9 calls\n/);
    expect(r.stderr).toMatch(/retry 1: batch [0-9a-f]{32} created: 3 calls that never connected, placed again/);

    const report = JSON.parse(readFileSync(first, 'utf8'));
    // The run's batch: one, of 9 rows (3 cases × 3), each carrying its case id and repeat number.
    const batch = await get(`/batches/${report.batchId}`);
    expect(batch.total_contacts).toBe(9);
    const rows: any[] = await get(`/batches/${report.batchId}/executions`);
    const tags = await Promise.all(rows.map(async (e) => (await get(`/executions/${e.id}`)).context_details.recipient_data));
    expect(tags.map((t) => `${t.test_case_id}#${t.test_repeat}`).sort()).toEqual(
      ['busy-line#1', 'busy-line#2', 'busy-line#3', 'callback#1', 'callback#2', 'callback#3', 'declines#1', 'declines#2', 'declines#3'],
    );
    // The retry: a second batch of only the 3 busy calls, made after every call of the first had ended.
    expect(report.retries).toHaveLength(1);
    const retry = await get(`/batches/${report.retries[0].batchId}`);
    expect(retry.total_contacts).toBe(3);
    expect(retry.file_name).toMatch(/-retry-1\.csv$/);
    const lastEnd = Math.max(...(await Promise.all(rows.map(async (e) => Date.parse((await get(`/executions/${e.id}`)).updated_at)))));
    expect(Date.parse(retry.created_at)).toBeGreaterThanOrEqual(lastEnd - 1000);

    const byId = Object.fromEntries(report.cases.map((c: any) => [c.caseId, c]));
    expect(byId.callback).toMatchObject({ verdict: 'pass', repeats: { passes: 3, calls: 3, passRate: 1, flaky: false, retried: 0 } });
    expect(byId.declines).toMatchObject({ verdict: 'fail', triage: 'agent', repeats: { passes: 0, calls: 3, worstRepeat: 1 } });
    expect(byId.declines.repeats.reasons).toEqual([{ reason: 'extracted.interested equals: expected equals true, got false', triage: 'agent', count: 3 }]);
    expect(byId['busy-line']).toMatchObject({ verdict: 'fail', gate: 'advisory', triage: 'no-connection', repeats: { passes: 0, retried: 3 } });
    expect(byId['busy-line'].repeats.runs.map((x: any) => x.retriedFrom?.[0]?.status)).toEqual(['busy', 'busy', 'busy']);
    expect(report).toMatchObject({ verdict: 'fail', calls: 9, passedCalls: 3, blocking: { pass: 1, fail: 1, error: 0 }, advisory: { pass: 0, fail: 1, error: 0 } });
    expect(r.stdout).toMatch(/^FAIL\s+0\/3 \(0%\)\s+declines\s/m);
    expect(r.stdout).toMatch(/^FAIL \(advisory\)\s+0\/3 \(0%\)\s+busy-line\s.*\[no connection\] status: expected completed, got busy/m);
    expect(r.stdout).toContain('Retry 1 (calls that never connected): 3 placed again');

    // JUnit: the class as a property and in the message; the figures as properties.
    const doc = await parseStringPromise(readFileSync(junit, 'utf8'), { strict: true });
    const busy = doc.testsuites.testsuite[0].testcase[2];
    const props = Object.fromEntries(busy.properties[0].property.map((x: any) => [x.$.name, x.$.value]));
    expect(props).toMatchObject({ triage: 'no-connection', passes: '0', calls: '3', gate: 'advisory', retried_no_connection: '3' });
    expect(busy.failure[0].$.message).toMatch(/^\[no connection\] status: expected completed, got busy \(0\/3 \(0%\) passed, needs 100%/);

    // The agent "changed": the callback case now expects a phrase it does not say. Against the first run: a flip.
    const second = await qa([
      'run',
      planFile('plan2.json', { status: 'completed', transcript: { contains: ['see you on Saturday'] } }),
      '--base-url',
      sb.url,
      '--baseline',
      first,
    ]);
    expect(second.code, second.stderr).toBe(3);
    expect(second.stdout).toContain('Regressions (pass → fail): callback 100% → 0%');
    expect(second.stdout).toContain('Already failing in the baseline: declines 0% → 0%, busy-line 0% → 0% (advisory)');

    // The same plan as the baseline, with only already-failing cases failing: no regression, exit 0.
    const third = await qa(['run', planFile('plan3.json', { status: 'completed' }), '--base-url', sb.url, '--baseline', first]);
    expect(third.code, third.stdout).toBe(0);
    expect(third.stdout).toContain('No regressions (pass → fail).');
  });

  it('a baseline that is not a run report: exit 2, nothing dialled', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"format":"voice-agent-test-plan"}');
    sb.reset();
    const r = await qa(['run', planFile('plan4.json', {}), '--base-url', sb.url, '--baseline', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not a run\'s JSON report (--json): format: must be "voice-agent-test-run"');
    const log: Array<{ path: string }> = (await call(sb.url, 'GET', '/__sandbox/requests', { key: null })).body;
    expect(log.filter((x) => !x.path.startsWith('/__sandbox'))).toEqual([]);
  });
});

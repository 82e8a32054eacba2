/**
 * The command line as a CI job meets it: a real child process against a real sandbox, cancelled with
 * SIGINT or SIGTERM mid-run, or cut short by --max-wait. What happened is read from the sandbox's own
 * records (its request log and its execution status events), never from what the CLI says about itself.
 *
 * The sandbox runs at speed 1 so the batch's start is two real minutes away; the test moves calls on
 * with the sandbox's clock control (`advance` fires every pending timer: each call moves one step).
 * After the CLI has exited, advancing the clock again makes anything still pending happen at once, so
 * "no call was dialled after the cancel" is a fact read from the events, not a wait.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OWNER_KEY } from '../../../sandbox/keys';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { call } from '../../../sandbox/testing';

// Each test starts a Node process that loads the TypeScript through tsx: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

const ROOT = join(__dirname, '../../..');
const PLAN = join(ROOT, 'tests/fixtures/plans/sandbox-pass.json');
/** The installed command, as CI runs it (package.json "bin"). */
const BIN = join(ROOT, 'bin/voice-agent-qa.mjs');

let sb: Sandbox;
let dir: string;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 1 });
});
afterAll(() => sb.close());
beforeEach(async () => {
  sb.reset();
  await call(sb.url, 'POST', '/__sandbox/clock', { key: null, body: { speed: 1 } });
  dir = mkdtempSync(join(tmpdir(), 'qa-cancel-'));
});

interface Running {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  /** Resolves with the first stderr match (the CLI's progress lines are the signal to act on). */
  line: (re: RegExp) => Promise<RegExpExecArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function qa(args: string[]): Running {
  const { VOICE_AGENT_API_KEY: _k, VOICE_AGENT_BASE_URL: _u, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...inherited, VOICE_AGENT_API_KEY: OWNER_KEY } });
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => {
    err += d;
    for (const w of waiters.splice(0)) w();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const line = (re: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const m = re.exec(err);
        if (m) return resolve(m);
        if (child.exitCode !== null) return reject(new Error(`the CLI exited (${child.exitCode}) before ${re}:\n${err}`));
        waiters.push(check);
      };
      exited.then(() => setTimeout(check, 10));
      check();
    });
  return { child, stderr: () => err, stdout: () => out, line, exited };
}

const reports = () => ['--junit', join(dir, 'r.xml'), '--json', join(dir, 'r.json'), '--csv', join(dir, 'r.csv')];
const advance = () => call(sb.url, 'POST', '/__sandbox/clock', { key: null, body: { advance: true } });
const log = async (): Promise<Array<{ method: string; path: string; status: number; at: number }>> => (await call(sb.url, 'GET', '/__sandbox/requests', { key: null })).body;
const events = async (): Promise<Array<{ execution_id: string; status: string; at: number }>> => (await call(sb.url, 'GET', '/__sandbox/events', { key: null })).body;
const batchStatus = async (id: string) => (await call(sb.url, 'GET', `/batches/${id}`)).body?.status as string | undefined;
const DIALLING = ['queued', 'initiated', 'ringing', 'in-progress', 'call-disconnected', 'completed', 'busy', 'no-answer'];

/** After the CLI is gone: fire everything the sandbox still has pending, then list what was dialled after `since`. */
async function dialledAfter(since: number) {
  for (let i = 0; i < 6; i++) await advance();
  return (await events()).filter((e) => e.at >= since && DIALLING.includes(e.status));
}

const cancelRequestAt = async (batchId: string) => {
  const stop = (await log()).find((q) => (q.method === 'POST' && q.path === `/batches/${batchId}/stop`) || (q.method === 'DELETE' && q.path === `/batches/${batchId}`));
  expect(stop, 'the CLI stopped or deleted the batch').toBeDefined();
  return stop!.at;
};

describe('cancelling a run (SIGINT, SIGTERM)', () => {
  it('SIGINT while the batch waits for its start: the batch is stopped, nothing is dialled, every report says cancelled, exit 130', async () => {
    const run = qa(['run', PLAN, '--base-url', sb.url, ...reports()]);
    const batchId = (await run.line(/batch ([0-9a-f]{32}) created/))[1]!;
    await run.line(/scheduled at/);
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(130);

    expect(await batchStatus(batchId)).toBe('stopped');
    expect(await dialledAfter(0)).toEqual([]);

    const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(json.cases.map((c: any) => [c.caseId, c.unfinished])).toEqual([
      ['callback', 'cancelled'],
      ['declines', 'cancelled'],
      ['busy-line', 'cancelled'],
    ]);
    expect(JSON.stringify(json)).not.toMatch(/never happened|was not placed/i);
    expect(readFileSync(join(dir, 'r.xml'), 'utf8')).toMatch(/type="cancelled"/);
    expect(readFileSync(join(dir, 'r.csv'), 'utf8')).toMatch(/callback,.*,cancelled/);
    expect(run.stdout()).toMatch(/^CANCELLED\s+callback\s/m);
    expect(run.stderr()).toMatch(new RegExp(`batch ${batchId} stopped`));
  });

  it('SIGTERM while calls ring: finished calls keep their verdicts, the rest are stopped and cancelled, nothing dials after, exit 143', async () => {
    const run = qa(['run', PLAN, '--base-url', sb.url, ...reports()]);
    const batchId = (await run.line(/batch ([0-9a-f]{32}) created/))[1]!;
    await run.line(/scheduled at/);
    // Start the batch and move each call three steps: the busy line has ended, the others ring.
    for (let i = 0; i < 3; i++) await advance();
    const list = (await call(sb.url, 'GET', `/batches/${batchId}/executions`)).body as Array<{ status: string }>;
    expect(list.map((e) => e.status).sort()).toEqual(['busy', 'ringing', 'ringing']);

    run.child.kill('SIGTERM');
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(143);
    const stoppedAt = await cancelRequestAt(batchId);
    expect(await batchStatus(batchId)).toBe('stopped');
    expect(await dialledAfter(stoppedAt)).toEqual([]);

    const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    const byCase = Object.fromEntries(json.cases.map((c: any) => [c.caseId, c]));
    expect(byCase['busy-line']).toMatchObject({ verdict: 'pass', status: 'busy', unfinished: null });
    expect(byCase.callback).toMatchObject({ verdict: 'error', unfinished: 'cancelled' });
    expect(byCase.declines).toMatchObject({ verdict: 'error', unfinished: 'cancelled' });
    expect(run.stdout()).toMatch(/^PASS\s+busy-line\s/m);
  });

  it('a second Ctrl-C exits at once and names the batch left running', async () => {
    const run = qa(['run', PLAN, '--base-url', sb.url]);
    const batchId = (await run.line(/batch ([0-9a-f]{32}) created/))[1]!;
    await run.line(/scheduled at/);
    // Hold the stop request in the sandbox so the first Ctrl-C is still waiting for it.
    await call(sb.url, 'POST', '/__sandbox/faults', { key: null, body: { method: 'POST', path: '/stop$', delayMs: 600_000, count: 10 } });
    run.child.kill('SIGINT');
    await run.line(/Stopping batch/);
    run.child.kill('SIGINT');
    const { code } = await run.exited;
    expect(code).toBe(130);
    expect(run.stderr()).toMatch(new RegExp(`left running.*${batchId}|${batchId}.*left running`));
    await call(sb.url, 'DELETE', '/__sandbox/faults', { key: null });
    await call(sb.url, 'POST', '/__sandbox/faults/release', { key: null });
  });
});

describe('--max-wait bounds the whole run', () => {
  it('a deadline before the start: the batch is stopped, nothing dials, the cases say not finished', async () => {
    const run = qa(['run', PLAN, '--base-url', sb.url, '--max-wait', '0.05', ...reports()]);
    const batchId = (await run.line(/batch ([0-9a-f]{32}) created/))[1]!;
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(1);
    expect(await batchStatus(batchId)).toBe('stopped');
    expect(await dialledAfter(0)).toEqual([]);
    const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(json.cases.every((c: any) => c.unfinished === 'not-finished')).toBe(true);
    expect(run.stdout()).toMatch(/not finished/i);
    expect(run.stdout()).not.toMatch(/never happened/i);
  });

  it('--leave-running: the batch is left scheduled and named', async () => {
    const run = qa(['run', PLAN, '--base-url', sb.url, '--max-wait', '0.05', '--leave-running', ...reports()]);
    const batchId = (await run.line(/batch ([0-9a-f]{32}) created/))[1]!;
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(1);
    expect(await batchStatus(batchId)).toBe('scheduled');
    expect(run.stderr()).toMatch(new RegExp(`${batchId}.*left running|left running.*${batchId}`));
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).cases.every((c: any) => c.unfinished === 'not-finished')).toBe(true);
    await call(sb.url, 'POST', `/batches/${batchId}/stop`);
  });
});

describe('report files', () => {
  it('an unwritable report path is refused before anything is dialled (exit 2)', async () => {
    const run = qa(['run', PLAN, '--base-url', sb.url, '--json', join(dir, 'r.json'), '--junit', join(dir, 'no-such-dir', 'r.xml')]);
    const { code } = await run.exited;
    expect(code).toBe(2);
    expect(run.stderr()).toContain(join(dir, 'no-such-dir', 'r.xml'));
    expect(await log()).toEqual([]);
  });

  it('a report that cannot be written after the calls does not stop the others, and exits 1', async () => {
    const gone = join(dir, 'gone');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(gone);
    // Hold the first read of the executions until the directory is gone.
    await call(sb.url, 'POST', '/__sandbox/faults', { key: null, body: { method: 'GET', path: '/executions$', delayMs: 600_000 } });
    await call(sb.url, 'POST', '/__sandbox/clock', { key: null, body: { speed: 600 } });
    const run = qa(['run', PLAN, '--base-url', sb.url, '--junit', join(gone, 'r.xml'), '--json', join(dir, 'r.json'), '--csv', join(dir, 'r.csv')]);
    await run.line(/scheduled at/);
    rmSync(gone, { recursive: true });
    await call(sb.url, 'POST', '/__sandbox/faults/release', { key: null });
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(1);
    expect(run.stderr()).toContain(join(gone, 'r.xml'));
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).verdict).toBe('pass');
    expect(existsSync(join(dir, 'r.csv'))).toBe(true);
  });
});

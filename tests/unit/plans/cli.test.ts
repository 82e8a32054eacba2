// The command line as CI runs it: a child process against a real sandbox (port 0, high speed).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseStringPromise } from 'xml2js';
import { OWNER_KEY } from '../../../sandbox/keys';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { parseQaArgs, UsageError } from '../../../lib/plans/cli';

// Each test starts a Node process that loads the TypeScript through tsx: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

const ROOT = join(__dirname, '../../..');
/** The command CI runs (package.json "bin"). */
const BIN = join(ROOT, 'bin/voice-agent-qa.mjs');
const PLANS = join(ROOT, 'tests/fixtures/plans');
let sb: Sandbox;
let dir: string;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 600 });
  dir = mkdtempSync(join(tmpdir(), 'qa-'));
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}
/** Async on purpose: the sandbox answers from this same process. */
function qa(args: string[], env: Record<string, string> = { VOICE_AGENT_API_KEY: OWNER_KEY }): Promise<Ran> {
  return new Promise((resolve) => {
    const { VOICE_AGENT_API_KEY: _k, VOICE_AGENT_BASE_URL: _u, ...inherited } = process.env;
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...inherited, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}
const requests = async (): Promise<Array<{ method: string; path: string }>> => (await fetch(`${sb.url}/__sandbox/requests`)).json();

describe('npm run qa -- run', () => {
  it('exits 0 on an all-pass plan, prints the table, writes a valid JUnit file, within its request budget', async () => {
    const junit = join(dir, 'pass.xml');
    const json = join(dir, 'pass.json');
    const r = await qa(['run', join(PLANS, 'sandbox-pass.json'), '--base-url', sb.url, '--junit', junit, '--json', json]);
    expect(r.stderr).toMatch(/batch [0-9a-f]{32} created: 3 calls/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^PASS\s+callback\s/m);
    expect(r.stdout).toMatch(/^PASS\s+declines\s/m);
    expect(r.stdout).toMatch(/^PASS\s+busy-line\s+A busy line ends busy\s+busy/m);
    expect(r.stdout).toContain('PASS: 3 passed, 0 failed, 0 in error of 3 cases');

    const doc = await parseStringPromise(readFileSync(junit, 'utf8'), { strict: true });
    expect(doc.testsuites.testsuite[0].$).toMatchObject({ tests: '3', failures: '0', errors: '0' });
    expect(doc.testsuites.testsuite[0].testcase.map((t: any) => t.$.name)).toEqual([
      'callback: Books a call back at the time asked',
      'declines: Takes a no politely',
      'busy-line: A busy line ends busy',
    ]);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report).toMatchObject({ verdict: 'pass', counts: { pass: 3 } });
    // Each outcome carries what was really there: a phrase found says where, not "not said".
    const said = report.cases[0].outcomes.find((o: any) => o.name === 'transcript contains');
    expect(said).toMatchObject({ passed: true, actual: expect.stringMatching(/^said: ".*Friday at 3pm works for me/) });

    // One batch; the list polled; each execution read in full exactly once; nothing else.
    const log = await requests();
    expect(log.filter((q) => q.method === 'POST' && q.path === '/batches')).toHaveLength(1);
    const full = log.filter((q) => /^\/executions\/[^/]+$/.test(q.path)).map((q) => q.path);
    expect(full).toHaveLength(3);
    expect(new Set(full).size).toBe(3);
    const total = Number(/(\d+) requests to the service/.exec(r.stderr)?.[1]);
    expect(total).toBe(log.length);
    // Besides: one look at the agent's batches after the create (the engine removes a twin a resent POST made).
    expect(log.filter((q) => /^\/batches\/[0-9a-f-]{36}(\/all)?$/.test(q.path))).toHaveLength(1);
    expect(log.every((q) => q.method === 'POST' || /^\/batches\/[0-9a-f]{32}(\/executions)?$|^\/batches\/[0-9a-f-]{36}(\/all)?$|^\/executions\//.test(q.path))).toBe(true);
  });

  it('exits 1 on a failing plan, naming the failing cases, with the failures in the JUnit file', async () => {
    const junit = join(dir, 'fail.xml');
    const csv = join(dir, 'fail.csv');
    const r = await qa(['run', join(PLANS, 'sandbox-fail.json'), '--base-url', sb.url, '--junit', junit, '--csv', csv]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL\s+wrong-field\s.*extracted\.interested equals: expected equals true, got false$/m);
    expect(r.stdout).toMatch(/^FAIL\s+wrong-status\s.*status: expected completed, got busy$/m);
    expect(r.stdout).toMatch(/^ERROR\s+never-placed\s/m);
    expect(r.stdout).toContain('Failed: wrong-field (Expects interest from a caller who declines), wrong-status (Expects an answer from a busy line)');
    expect(r.stdout).toContain('In error (call never happened): never-placed (A provider error)');

    const doc = await parseStringPromise(readFileSync(junit, 'utf8'), { strict: true });
    const suite = doc.testsuites.testsuite[0];
    expect(suite.$).toMatchObject({ tests: '4', failures: '2', errors: '1' });
    expect(suite.testcase.filter((t: any) => t.failure).map((t: any) => t.$.name)).toEqual([
      'wrong-field: Expects interest from a caller who declines',
      'wrong-status: Expects an answer from a busy line',
    ]);
    expect(readFileSync(csv, 'utf8').split('\r\n')[0]).toBe('case_id,label,contact_number,verdict,status,duration_s,cost_cents,execution_id,problems,triage,passes,calls,pass_rate,flaky,gate');
  });

  it('refuses a key given as an argument, before any request (exit 2)', async () => {
    const r = await qa(['run', join(PLANS, 'sandbox-pass.json'), '--base-url', sb.url, '--key', 'va_test_owner']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/never taken as an argument.*VOICE_AGENT_API_KEY/s);
    expect(r.stderr).not.toContain('va_test_owner');
    expect(await requests()).toEqual([]);
  });

  it('a plan with problems: exit 2, each problem with its path, nothing called', async () => {
    const bad = join(dir, 'bad.json');
    const plan = JSON.parse(readFileSync(join(PLANS, 'sandbox-pass.json'), 'utf8'));
    plan.cases[1].contact_number = '555-0124';
    plan.cases[2].expect.duration = { at_most: -5 };
    writeFileSync(bad, JSON.stringify(plan));
    const r = await qa(['run', bad, '--base-url', sb.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cases[1].contact_number: must be an E.164 phone number');
    expect(r.stderr).toContain('cases[2].expect.duration.at_most: must be 0 or more');
    expect(await requests()).toEqual([]);
  });

  it('no key in the environment: exit 2 with what to set', async () => {
    const r = await qa(['run', join(PLANS, 'sandbox-pass.json'), '--base-url', sb.url], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Set VOICE_AGENT_API_KEY');
  });

  it('a bad key: exit 2, the run could not start, the key not echoed', async () => {
    const r = await qa(['run', join(PLANS, 'sandbox-pass.json'), '--base-url', sb.url], { VOICE_AGENT_API_KEY: 'va_wrong_key_123' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/The run could not start: .*Invalid API key/);
    expect(r.stderr + r.stdout).not.toContain('va_wrong_key_123');
  });
});

describe('as CI runs it', () => {
  it('`npx voice-agent-qa run …`: stdout holds only the table and its summary; progress on stderr names cases, not executions', async () => {
    const { VOICE_AGENT_API_KEY: _k, VOICE_AGENT_BASE_URL: _u, ...inherited } = process.env;
    const r = await new Promise<Ran>((resolve) =>
      execFile('npx', ['voice-agent-qa', 'run', join(PLANS, 'sandbox-pass.json'), '--base-url', sb.url], { cwd: ROOT, env: { ...inherited, VOICE_AGENT_API_KEY: OWNER_KEY }, timeout: 90_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      ),
    );
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^VERDICT\s+CASE\s+LABEL/);
    expect(lines.slice(1, 4).map((l) => l.split(/\s+/)[1])).toEqual(['callback', 'declines', 'busy-line']);
    expect(lines.slice(4)).toEqual(['', expect.stringMatching(/^PASS: 3 passed/)]);
    expect(r.stderr).toMatch(/case busy-line ended busy/);
    expect(r.stderr).toMatch(/case callback ended completed/);
    expect(r.stderr).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  }, 120_000);

  it('"Agent not found" names the agent and says to check that the key belongs to its account (exit 2)', async () => {
    const other = join(dir, 'other-agent.json');
    const plan = JSON.parse(readFileSync(join(PLANS, 'sandbox-pass.json'), 'utf8'));
    plan.agent_id = '99999999-aaaa-4aaa-8aaa-0a0000000009';
    writeFileSync(other, JSON.stringify(plan));
    const r = await qa(['run', other, '--base-url', sb.url]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Agent 99999999-aaaa-4aaa-8aaa-0a0000000009 not found');
    expect(r.stderr).toMatch(/VOICE_AGENT_API_KEY is a key of the account that owns this agent/);
  });
});

describe('against the spec\'s route forms', () => {
  let spec: Sandbox;
  beforeAll(async () => {
    spec = await startSandbox({ port: 0, speed: 600, routes: 'spec' });
  });
  afterAll(() => spec.close());

  it('the same plan passes through the spec-only routes (POST /batches/schedule with batch_id)', async () => {
    const r = await qa(['run', join(PLANS, 'sandbox-pass.json'), '--base-url', spec.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('PASS: 3 passed, 0 failed, 0 in error of 3 cases');
    const log: Array<{ path: string }> = await (await fetch(`${spec.url}/__sandbox/requests`)).json();
    expect(log.some((q) => q.path === '/batches/schedule')).toBe(true);
  });
});

describe('parseQaArgs', () => {
  it('reads the command, the plan and the options, = forms included', () => {
    expect(parseQaArgs(['--', 'run', 'p.json', '--base-url=http://127.0.0.1:1/', '--junit', 'o.xml', '--max-wait', '2'])).toEqual({
      planPath: 'p.json',
      baseUrl: 'http://127.0.0.1:1',
      junit: 'o.xml',
      maxWaitMs: 120_000,
    });
    expect(parseQaArgs(['run', 'p.json'], { VOICE_AGENT_BASE_URL: 'https://api.example.com' }).baseUrl).toBe('https://api.example.com');
  });
  it('--base-url follows the extension\'s rule: HTTPS, or plain HTTP to an address that parses as loopback', () => {
    for (const ok of ['https://api.example.com', 'http://127.0.0.1:8787', 'http://localhost:1', 'http://[::1]:9', 'http://0x7f.1:9', 'http://2130706433:9']) {
      expect(parseQaArgs(['run', 'p.json', '--base-url', ok]).baseUrl, ok).toMatch(/^https?:\/\//);
    }
    for (const refused of ['http://api.example.com', 'http://127.evil.example', 'http://10.0.0.1', 'http://127.0.0.1.nip.io']) {
      expect(() => parseQaArgs(['run', 'p.json', '--base-url', refused]), refused).toThrow(/must use HTTPS/);
    }
    // The variable is checked by the same rule, and the error says where the address came from.
    expect(() => parseQaArgs(['run', 'p.json'], { VOICE_AGENT_BASE_URL: 'http://example.com' })).toThrow(/--base-url \(from VOICE_AGENT_BASE_URL\) "http:\/\/example.com": .*HTTPS/);
    expect(() => parseQaArgs(['run', 'p.json', '--base-url', 'https://user:pw@example.com'])).toThrow(UsageError);
  });
  it('--leave-running is a flag', () => {
    expect(parseQaArgs(['run', 'p.json', '--base-url', 'https://x.example', '--leave-running']).leaveRunning).toBe(true);
  });
  it.each([
    [['p.json'], /Unknown command "p.json"/],
    [['run'], /Missing the plan file/],
    [['run', 'p.json'], /Missing --base-url/],
    [['run', 'p.json', '--base-url', 'ftp://x'], /must start with https:\/\//],
    [['run', 'p.json', '--base-url', 'https://x', '--json', 'a', '--csv', 'a'], /a is given for two reports/],
    [['run', 'p.json', '--base-url', 'http://x', '--junit'], /--junit needs a value/],
    [['run', 'p.json', '--base-url', 'http://x', '--api-key=abc'], /never taken as an argument/],
    [['run', 'p.json', '--base-url', 'http://x', '--verbose'], /Unknown option --verbose/],
    [['run', 'p.json', 'q.json', '--base-url', 'http://x'], /Unexpected argument "q.json"/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseQaArgs(argv)).toThrow(UsageError);
    expect(() => parseQaArgs(argv)).toThrow(message);
  });
});

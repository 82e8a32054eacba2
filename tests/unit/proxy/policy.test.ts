/**
 * The policy file and the proxy's command line: a bad file stops it with every problem named by its
 * path; origins, agents and numbers are refused with a reason; the environment follows the project's
 * host rule; `token` mints for what the policy allows and refuses the rest.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProxyArgs, runProxyCommand } from '../../../proxy/cli';
import { readConfig } from '../../../proxy/config';
import { agentAllowed, numberAllowed, numberMatches, originAllowed, parsePolicy } from '../../../proxy/policy';
import { verifyWidgetToken } from '../../../proxy/token';

const GOOD = { origins: ['https://crm.example', 'http://127.0.0.1:4101'], agents: ['agent-1'], numbers: ['+1415', '+4930XXXXXXXX'] };
const SECRET = 'a-secret-for-tests-that-is-32-chars-or-more';

function problems(value: unknown): string {
  try {
    parsePolicy(typeof value === 'string' ? value : JSON.stringify(value), 'proxy.policy.json');
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}

describe('the policy file', () => {
  it('a good file is read with its defaults (limits under the service\'s own, transcripts on)', () => {
    const policy = parsePolicy(JSON.stringify(GOOD), 'p.json');
    expect(policy.limits).toEqual({ tokenRequestsPerMinute: 240, tokenCallsPerMinute: 5, requestsPerMinute: 1200, callsPerMinute: 30, serviceRequestsPerMinute: 300 });
    expect(policy.transcripts).toBe(true);
  });

  it('the shipped example (proxy/policy.example.json) is a valid policy', () => {
    const text = readFileSync(join(__dirname, '../../../proxy/policy.example.json'), 'utf8');
    expect(parsePolicy(text, 'proxy/policy.example.json').origins).toContain('https://crm.example');
  });

  it('a bad file names the file and each problem by its path', () => {
    expect(problems('{ "origins": [')).toMatch(/^proxy\.policy\.json: not valid JSON/);
    const text = problems({ origins: ['crm.example', 'http://crm.example', 'https://crm.example/page'], agents: [], numbers: ['0415', '+1 415'], limits: { serviceRequestsPerMinute: 900 }, extra: 1 });
    expect(text).toMatch(/^proxy\.policy\.json: the policy is not valid:/);
    expect(text).toMatch(/origins\.0: must be a page origin/);
    expect(text).toMatch(/origins\.1: must be a page origin/);
    expect(text).toMatch(/origins\.2: must be a page origin/);
    expect(text).toMatch(/agents: list at least one agent id/);
    expect(text).toMatch(/numbers\.0: must be an E\.164 prefix/);
    expect(text).toMatch(/numbers\.1: must be an E\.164 prefix/);
    expect(text).toMatch(/limits\.serviceRequestsPerMinute: at most 500: under the service's own limit/);
    expect(text).toMatch(/extra/);
  });

  it('origins, agents and numbers outside it are refused with a reason', () => {
    const policy = parsePolicy(JSON.stringify(GOOD), 'p.json');
    expect(originAllowed(policy, 'https://crm.example')).toEqual({ ok: true });
    expect(originAllowed(policy, 'https://evil.example')).toMatchObject({ ok: false, code: 'origin-not-allowed', reason: expect.stringContaining('https://evil.example') });
    expect(originAllowed(policy, null)).toMatchObject({ ok: false, code: 'origin-missing' });
    expect(agentAllowed(policy, ['agent-1'], 'agent-1')).toEqual({ ok: true });
    expect(agentAllowed(policy, ['agent-1', 'agent-2'], 'agent-2')).toMatchObject({ ok: false, reason: expect.stringContaining("policy") });
    expect(agentAllowed({ ...policy, agents: ['agent-1', 'agent-2'] }, ['agent-1'], 'agent-2')).toMatchObject({ ok: false, reason: expect.stringContaining('token') });
    expect(numberAllowed(policy, '+14155550123')).toEqual({ ok: true });
    expect(numberAllowed(policy, '+493012345678')).toEqual({ ok: true });
    expect(numberAllowed(policy, '+4930123456789')).toMatchObject({ ok: false, code: 'number-not-allowed', reason: expect.stringContaining('+4930123456789') });
    expect(numberAllowed(policy, '+442071234567')).toMatchObject({ ok: false });
  });

  it('number rules: a prefix, or a whole-number pattern where X is one digit', () => {
    expect(numberMatches('+', '+14155550123')).toBe(true);
    expect(numberMatches('+1415', '+14155550123')).toBe(true);
    expect(numberMatches('+1415', '+14165550123')).toBe(false);
    expect(numberMatches('+1415555XXXX', '+14155550123')).toBe(true);
    expect(numberMatches('+1415555XXXX', '+141555501234')).toBe(false);
    expect(numberMatches('+1415555XXXX', '+14155560123')).toBe(false);
  });
});

describe('the environment', () => {
  const env = { VOICE_AGENT_API_KEY: 'va_key_12345678', VOICE_AGENT_BASE_URL: 'https://api.example', VOICE_AGENT_PROXY_SECRET: SECRET };
  it('takes HTTPS, or plain HTTP on loopback only (the project\'s host rule), and names what is missing', () => {
    expect(readConfig(env)).toEqual({ apiKey: 'va_key_12345678', baseUrl: 'https://api.example', secret: SECRET });
    expect(readConfig({ ...env, VOICE_AGENT_BASE_URL: 'http://127.0.0.1:8787/' }).baseUrl).toBe('http://127.0.0.1:8787');
    expect(() => readConfig({ ...env, VOICE_AGENT_BASE_URL: 'http://api.example' })).toThrow(/VOICE_AGENT_BASE_URL "http:\/\/api\.example": .*HTTPS/);
    expect(() => readConfig({ ...env, VOICE_AGENT_BASE_URL: 'http://127.evil.example' })).toThrow(/HTTPS/);
    expect(() => readConfig({ ...env, VOICE_AGENT_API_KEY: '' })).toThrow(/VOICE_AGENT_API_KEY is not set/);
    expect(() => readConfig({ ...env, VOICE_AGENT_PROXY_SECRET: 'short' })).toThrow(/VOICE_AGENT_PROXY_SECRET is too short/);
  });
});

describe('the command line', () => {
  const io = () => {
    const out = { stdout: '', stderr: '' };
    return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t) } };
  };

  it('parses serve and token, and refuses what it does not know', () => {
    expect(parseProxyArgs(['--port', '0', '--policy', 'p.json'])).toMatchObject({ command: 'serve', port: 0, policyPath: 'p.json' });
    expect(parseProxyArgs(['token', '--origin', 'https://crm.example', '--agents', 'a,b', '--minutes', '5'])).toMatchObject({ command: 'token', agents: ['a', 'b'], minutes: 5 });
    expect(() => parseProxyArgs(['token', '--agents', 'a'])).toThrow(/--origin/);
    expect(() => parseProxyArgs(['token', '--origin', 'https://crm.example', '--agents', 'a', '--minutes', '90'])).toThrow(/at most 60/);
    expect(() => parseProxyArgs(['--key', 'x'])).toThrow(/Unknown option --key/);
    expect(() => parseProxyArgs(['dial'])).toThrow(/Unknown command "dial"/);
  });

  it('`token` prints a token the proxy accepts for that origin; with --policy it refuses an origin or agent the policy does not allow', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'policy-'));
    const policyPath = join(dir, 'proxy.policy.json');
    writeFileSync(policyPath, JSON.stringify(GOOD));
    const ok = io();
    expect(await runProxyCommand(['token', '--origin', 'https://crm.example', '--agents', 'agent-1', '--minutes', '10', '--who', 'ada', '--policy', policyPath], { VOICE_AGENT_PROXY_SECRET: SECRET }, ok.io)).toBe(0);
    const check = await verifyWidgetToken(SECRET, ok.out.stdout.trim(), 'https://crm.example');
    expect(check).toMatchObject({ ok: true, claims: { agents: ['agent-1'], who: 'ada' } });
    expect(ok.out.stderr).toMatch(/valid until/);

    const badAgent = io();
    expect(await runProxyCommand(['token', '--origin', 'https://crm.example', '--agents', 'agent-9', '--policy', policyPath], { VOICE_AGENT_PROXY_SECRET: SECRET }, badAgent.io)).toBe(2);
    expect(badAgent.out.stderr).toMatch(/Agent agent-9 is not in this proxy's policy/);
    expect(badAgent.out.stdout).toBe('');
    const badOrigin = io();
    expect(await runProxyCommand(['token', '--origin', 'https://evil.example', '--agents', 'agent-1', '--policy', policyPath], { VOICE_AGENT_PROXY_SECRET: SECRET }, badOrigin.io)).toBe(2);
    expect(badOrigin.out.stderr).toMatch(/https:\/\/evil\.example may not use this proxy/);
    const noSecret = io();
    expect(await runProxyCommand(['token', '--origin', 'https://crm.example', '--agents', 'agent-1'], {}, noSecret.io)).toBe(2);
    expect(noSecret.out.stderr).toMatch(/VOICE_AGENT_PROXY_SECRET is not set/);
  });

  it('`npm run proxy` (proxy/main.ts) prints its URL and answers there; the key never appears in its output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'policy-'));
    writeFileSync(join(dir, 'proxy.policy.json'), JSON.stringify(GOOD));
    const root = join(__dirname, '../../..');
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'proxy/main.ts'), '--port', '0', '--policy', join(dir, 'proxy.policy.json'), '--audit', join(dir, 'audit.jsonl')], {
      cwd: root,
      env: { ...process.env, VOICE_AGENT_API_KEY: 'va_secret_key_never_printed', VOICE_AGENT_BASE_URL: 'http://127.0.0.1:9', VOICE_AGENT_PROXY_SECRET: SECRET },
    });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += String(chunk);
          const found = /listening on (http:\/\/\S+)/.exec(output);
          if (found) resolve(found[1]!);
        });
        child.on('exit', (code) => reject(new Error(`proxy exited ${code}: ${output}`)));
      });
      const res = await fetch(`${url}/`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body, JSON.stringify(body)).toMatchObject({ service: 'voice-agent widget proxy' });
      // The banner's lines may reach the pipe in more than one chunk (CI once read only the first).
      await expect.poll(() => output, { timeout: 5_000 }).toMatch(/origins: https:\/\/crm\.example, http:\/\/127\.0\.0\.1:4101/);
      expect(output).not.toContain('va_secret_key_never_printed');
    } finally {
      child.kill();
    }
  });

  it('serve stops with a clear error for a missing or bad policy file, before listening', async () => {
    const env = { VOICE_AGENT_API_KEY: 'va_key_12345678', VOICE_AGENT_BASE_URL: 'http://127.0.0.1:9', VOICE_AGENT_PROXY_SECRET: SECRET };
    const missing = io();
    expect(await runProxyCommand(['--port', '0', '--policy', '/nonexistent/p.json'], env, missing.io)).toBe(2);
    expect(missing.out.stderr).toMatch(/Cannot read the policy file \/nonexistent\/p\.json: it does not exist/);
    const dir = mkdtempSync(join(tmpdir(), 'policy-'));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...GOOD, numbers: ['415'] }));
    const bad = io();
    expect(await runProxyCommand(['--port', '0', '--policy', join(dir, 'bad.json')], env, bad.io)).toBe(2);
    expect(bad.out.stderr).toMatch(/bad\.json: the policy is not valid:\n {2}numbers\.0: must be an E\.164 prefix/);
  });
});

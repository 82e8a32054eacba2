/**
 * A hostile page against the proxy: every request it can forge — no token, a token stolen from an
 * allowed page and sent from its own origin (or with no Origin, as a server would), a token of another
 * allowed origin, expired and replayed-after-expiry tokens, a forged signature, a changed payload,
 * a key in the body, cookies, agents and numbers outside the policy — and not one request reaches the
 * sandbox (its own request log is empty). Prints the attempts by kind.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintWidgetToken } from '../../../proxy/token';
import { ALLOWED_ORIGIN, AGENT, callsPlaced, HOSTILE_ORIGIN, OTHER_AGENT, SECOND_ORIGIN, SECRET, startHarness, testPolicy, type Harness } from '../../support/proxy-harness';

const widgetDir = mkdtempSync(join(tmpdir(), 'widget-'));
writeFileSync(join(widgetDir, 'widget.html'), '<!doctype html><title>widget</title>');

let h: Harness;
const refusedByProxy: string[] = [];
beforeAll(async () => {
  h = await startHarness({ policy: testPolicy({ origins: [ALLOWED_ORIGIN, SECOND_ORIGIN], agents: [AGENT] }), widgetDir, onRefused: (code) => refusedByProxy.push(code) });
});
afterAll(() => h.close());

const CALL = { agentId: AGENT, toNumber: '+14155550140', variables: {}, via: 'call' as const };

/** A token with one byte of its claims changed (origin → the hostile page), signature kept. */
function tampered(token: string): string {
  const [prefix, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
  const changed = Buffer.from(JSON.stringify({ ...claims, origin: HOSTILE_ORIGIN, agents: [AGENT, OTHER_AGENT] })).toString('base64url');
  return `${prefix}.${changed}.${signature}`;
}

describe('a hostile page gets nothing through the proxy', () => {
  it('every forged request is refused, zero requests reach the sandbox; the attempts by kind', async () => {
    // An allowed page's token (what the hostile page steals), and a real call the allowed page placed
    // with a token that expires in 3 s: its request is what the hostile page replays after expiry.
    const stolen = await h.mint();
    const shortLived = await mintWidgetToken(SECRET, { origin: ALLOWED_ORIGIN, agents: [AGENT], minutes: 1, now: Date.now() - 57_000 });
    const placed = await h.transport(shortLived.token).place(CALL);
    expect(placed.done).toBe(false);
    const expired = await mintWidgetToken(SECRET, { origin: ALLOWED_ORIGIN, agents: [AGENT], minutes: 1, now: Date.now() - 61_000 });
    const forged = await mintWidgetToken('another-secret-that-is-also-long-enough-42', { origin: HOSTILE_ORIGIN, agents: [AGENT], minutes: 10 });
    const forgedHere = await mintWidgetToken('another-secret-that-is-also-long-enough-42', { origin: ALLOWED_ORIGIN, agents: [AGENT], minutes: 10 });
    const outsidePolicy = await h.mint({ agents: [OTHER_AGENT] });
    // The short-lived token expires (the proxy's own answer says so), and the real call ends, before the hostile page starts.
    await expect.poll(async () => (await h.raw('GET', `/v1/calls/${placed.id}`, { token: shortLived.token })).status, { timeout: 10_000, interval: 200 }).toBe(401);
    await expect.poll(() => h.proxy.placements.nextDueAt(), { timeout: 10_000 }).toBeNull();
    await fetch(`${h.sb.url}/__sandbox/requests`, { method: 'DELETE' });
    refusedByProxy.length = 0;

    type Attempt = { kind: string; method: string; path: string; origin?: string | null; token?: string; body?: unknown; headers?: Record<string, string>; expect: [number, string] };
    const attempts: Attempt[] = [
      { kind: 'no token, hostile origin', method: 'POST', path: '/v1/calls', origin: HOSTILE_ORIGIN, body: CALL, expect: [403, 'origin-not-allowed'] },
      { kind: 'no token, allowed origin', method: 'POST', path: '/v1/calls', body: CALL, expect: [401, 'token-missing'] },
      { kind: 'stolen token, hostile origin', method: 'POST', path: '/v1/calls', origin: HOSTILE_ORIGIN, token: stolen, body: CALL, expect: [403, 'origin-not-allowed'] },
      { kind: 'stolen token, no Origin (a server)', method: 'POST', path: '/v1/calls', origin: null, token: stolen, body: CALL, expect: [403, 'origin-missing'] },
      { kind: 'stolen token, another allowed origin', method: 'POST', path: '/v1/calls', origin: SECOND_ORIGIN, token: stolen, body: CALL, expect: [403, 'token-origin'] },
      { kind: 'stolen token, read a call', method: 'GET', path: `/v1/calls/${placed.id}`, origin: HOSTILE_ORIGIN, token: stolen, expect: [403, 'origin-not-allowed'] },
      { kind: 'stolen token, stop a call', method: 'POST', path: `/v1/calls/${placed.id}/stop`, origin: HOSTILE_ORIGIN, token: stolen, expect: [403, 'origin-not-allowed'] },
      { kind: 'expired token', method: 'POST', path: '/v1/calls', token: expired.token, body: CALL, expect: [401, 'token-expired'] },
      { kind: 'replayed after expiry', method: 'POST', path: '/v1/calls', token: shortLived.token, body: { ...CALL, via: 'call' }, expect: [401, 'token-expired'] },
      { kind: 'forged signature', method: 'POST', path: '/v1/calls', origin: HOSTILE_ORIGIN, token: forged.token, body: CALL, expect: [403, 'origin-not-allowed'] },
      { kind: 'forged signature, allowed origin', method: 'POST', path: '/v1/calls', token: forgedHere.token, body: CALL, expect: [401, 'token-signature'] },
      { kind: 'changed claims, signature kept', method: 'POST', path: '/v1/calls', token: tampered(stolen), body: CALL, expect: [401, 'token-signature'] },
      { kind: 'not a token', method: 'POST', path: '/v1/calls', token: 'va_test_owner', body: CALL, expect: [401, 'token-malformed'] },
      { kind: 'a key in the body', method: 'POST', path: '/v1/calls', token: stolen, body: { ...CALL, apiKey: 'va_test_owner' }, expect: [400, 'bad-request'] },
      { kind: 'a key in the variables', method: 'POST', path: '/v1/calls', token: stolen, body: { ...CALL, variables: { api_key: 'va_test_owner' } }, expect: [400, 'credential-in-body'] },
      { kind: 'cookies', method: 'POST', path: '/v1/calls', token: stolen, body: CALL, headers: { Cookie: 'session=1' }, expect: [400, 'cookies-refused'] },
      { kind: 'not JSON', method: 'POST', path: '/v1/calls', token: stolen, body: 'agentId=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, expect: [415, 'json-only'] },
      { kind: 'a body past 16 KB', method: 'POST', path: '/v1/calls', token: stolen, body: { ...CALL, variables: { note: 'x'.repeat(20_000) } }, expect: [413, 'too-large'] },
      { kind: 'agent outside the token', method: 'POST', path: '/v1/calls', token: stolen, body: { ...CALL, agentId: OTHER_AGENT }, expect: [403, 'agent-not-allowed'] },
      { kind: 'agent outside the policy', method: 'POST', path: '/v1/calls', token: outsidePolicy, body: { ...CALL, agentId: OTHER_AGENT }, expect: [403, 'agent-not-allowed'] },
      { kind: 'number outside the policy', method: 'POST', path: '/v1/calls', token: stolen, body: { ...CALL, toNumber: '+4930123456' }, expect: [403, 'number-not-allowed'] },
      { kind: 'a call of another token', method: 'POST', path: `/v1/calls/${placed.id}/stop`, token: stolen, expect: [404, 'not-found'] },
      { kind: 'CORS preflight, hostile origin', method: 'OPTIONS', path: '/v1/calls', origin: HOSTILE_ORIGIN, headers: { 'Access-Control-Request-Method': 'POST' }, expect: [403, 'origin-not-allowed'] },
    ];

    const rows: Array<{ kind: string; status: number; code: string }> = [];
    for (const a of attempts) {
      const res = await h.raw(a.method, a.path, { origin: a.origin, token: a.token, body: a.body, headers: a.headers });
      rows.push({ kind: a.kind, status: res.status, code: res.body?.code });
      expect([res.status, res.body?.code], a.kind).toEqual(a.expect);
      // A refused answer never invites another origin to read it.
      if (a.origin === HOSTILE_ORIGIN || a.origin === null) expect(res.headers.get('access-control-allow-origin'), a.kind).toBeNull();
    }
    const log = await h.sandboxRequests();
    expect(log).toEqual([]);
    expect(callsPlaced(log)).toBe(0);
    expect(refusedByProxy).toHaveLength(attempts.length);

    const width = Math.max(...rows.map((r) => r.kind.length), 'attempt'.length);
    const table = [
      `${'attempt'.padEnd(width)}  answer  code`,
      ...rows.map((r) => `${r.kind.padEnd(width)}  ${String(r.status).padEnd(6)}  ${r.code}`),
      `${'requests that reached the sandbox'.padEnd(width)}  ${log.length}`,
      `${'calls placed'.padEnd(width)}  ${callsPlaced(log)}`,
    ].join('\n');
    console.log(`\nHostile page against the proxy — ${attempts.length} attempts\n${table}\n`);
  });

  it('widget.html may be framed only by the policy\'s origins; CORS answers only them', async () => {
    const page = await h.raw('GET', '/widget.html', { origin: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(`frame-ancestors 'self' ${ALLOWED_ORIGIN} ${SECOND_ORIGIN}`);
    expect(page.headers.get('set-cookie')).toBeNull();
    const preflight = await h.raw('OPTIONS', '/v1/calls', { headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization, content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    expect((await h.raw('GET', '/widget/../../etc/passwd', { origin: null })).status).toBe(404);
  });
});

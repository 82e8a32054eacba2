// The background's plan requests: the same checks as an import, readable refusals, and a run's preview from the service.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { plansHandlers } from '../../../lib/background/handlers/plans';
import { InputError } from '../../../lib/background/input-error';
import { planStore } from '../../../lib/background/plan-store';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { SEED } from '../../../sandbox/seed';
import { plan } from './fixtures';

const sandbox = vi.hoisted(() => ({ url: '' }));
vi.mock('../../../lib/background/service', async (original) => {
  const real = await original<typeof import('../../../lib/background/service')>();
  return { ...real, currentClient: async () => real.clientFor(sandbox.url, 'va_test_owner') };
});

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, speed: 600 });
  sandbox.url = sb.url;
});
afterAll(() => sb.close());
beforeEach(() => fakeBrowser.reset());

const NOW = Date.now();
const ctx = { calls: null as never, openPanel: async () => undefined, now: () => NOW };
const AGENT = SEED.A.agents.sales;
const good = plan({
  agent_id: AGENT,
  cases: [
    { id: 'a', label: 'A', contact_number: '+14155550123' },
    { id: 'b', label: 'B', contact_number: '+14155550123' },
    { id: 'c', label: 'C', contact_number: '+14155551001' },
  ],
});

describe('plans handlers', () => {
  it('refuses a plan the import would refuse, saying where and why, and stores nothing', async () => {
    const bad = { ...good, cases: [{ ...good.cases[0], contact_number: '555' }, { ...good.cases[1], id: 'a' }] };
    const refusal = plansHandlers['plans/save']({ type: 'plans/save', planId: 'p1', plan: bad }, ctx);
    await expect(refusal).rejects.toBeInstanceOf(InputError);
    await expect(refusal).rejects.toThrow(/cases\[0\]\.contact_number: .*E\.164/);
    await expect(refusal).rejects.toThrow(/cases\[1\]\.id: "a" is used by an earlier case/);
    expect(await planStore.plans()).toEqual([]);
  });

  it('saves under the id the UI chose (again: replaced, not added) and deletes', async () => {
    await plansHandlers['plans/save']({ type: 'plans/save', planId: 'p1', plan: good }, ctx);
    await plansHandlers['plans/save']({ type: 'plans/save', planId: 'p1', plan: { ...good, name: 'Renamed' } }, ctx);
    expect((await planStore.plans()).map((p) => [p.id, p.plan.name])).toEqual([['p1', 'Renamed']]);
    await plansHandlers['plans/delete']({ type: 'plans/delete', planId: 'p1' }, ctx);
    expect(await planStore.plans()).toEqual([]);
  });

  it('previews a run: how many calls, each number once, a cost estimate from recent calls and the start', async () => {
    await plansHandlers['plans/save']({ type: 'plans/save', planId: 'p1', plan: good }, ctx);
    const preview = await plansHandlers['plans/preview-run']({ type: 'plans/preview-run', planId: 'p1' }, ctx);
    expect(preview.calls).toBe(3);
    expect(preview.numbers).toEqual(['+14155550123', '+14155551001']);
    expect(preview.estimate?.basedOn).toBeGreaterThan(0);
    expect(preview.estimate?.cents).toBeGreaterThan(0);
    expect(preview.startsAt).toBeGreaterThan(NOW);
    expect(preview.liveStartsAt).toBeGreaterThanOrEqual(preview.startsAt);
    expect(preview.service).toBe(new URL(sb.url).host);
  });

  it('a preview of a plan no longer stored says so', async () => {
    await expect(plansHandlers['plans/preview-run']({ type: 'plans/preview-run', planId: 'gone' }, ctx)).rejects.toThrow(/no longer stored/);
  });
});

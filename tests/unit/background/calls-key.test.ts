/** A call is followed only with the key of the service it was placed at (CallsService.clientFor). */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Execution } from '../../../lib/api/schemas/execution';
import { CallsService } from '../../../lib/background/calls-service';
import { writeKey } from '../../../lib/background/key-store';
import type { ServiceClient } from '../../../lib/background/service';
import { storeSettings } from '../../../lib/background/settings-store';
import type { CallRecord } from '../../../lib/calls/call-record';
import { newCallRecord } from '../../../lib/calls/dial';
import { CALLS_STORAGE_KEY, writeCalls } from '../../../lib/calls/history';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { seedData } from '../ui/helpers';

const A = 'https://api.a.example';
const B = 'http://127.0.0.1:8787';
const NOW = Date.parse('2026-11-23T10:00:00Z');

/** A call placed at service A, being followed (its execution known). */
function callAtA(): CallRecord {
  const call = newCallRecord({ id: 'call-a', baseUrl: `${A}/v2`, agentId: 'agent-1', agentName: 'Sales', toNumber: '+14155550123', fromNumber: null, variables: {} }, NOW - 60_000);
  return { ...call, step: 'tracking', batchId: 'b'.repeat(32), executionId: 'exec-a', status: 'queued', nextPollAt: NOW - 1 };
}

let made: { baseUrl: string; key: string }[];
function service(): CallsService {
  return new CallsService(
    () => NOW,
    (baseUrl, key) => {
      made.push({ baseUrl, key });
      return {
        baseUrl,
        timeScale: () => 1,
        getExecution: async (id: string) => ({ id, status: 'in-progress' }) as Execution,
        stopBatch: async () => ({}),
      } as unknown as ServiceClient;
    },
  );
}

beforeEach(async () => {
  fakeBrowser.reset();
  made = [];
  // The settings have moved on to service B, with its own key.
  await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: B });
  await writeKey(B, 'key-for-service-b', true);
  await seedData({ calls: writeCalls([callAtA()]) });
  fakeBrowser.alarms.create = (() => undefined) as never;
});

describe('a call placed at another service than the saved one', () => {
  it('is polled at its own service with that service’s key', async () => {
    await writeKey(A, 'key-for-service-a', false);
    const calls = service();
    await calls.runDue().catch(() => undefined);
    expect(made).toEqual([{ baseUrl: `${A}/v2`, key: 'key-for-service-a' }]);
    expect(await calls.get('call-a')).toMatchObject({ status: 'in-progress', trackingPaused: false });
  });

  it('with no key for its service: paused, says plainly which key it needs, and no request is made', async () => {
    const calls = service();
    await calls.runDue().catch(() => undefined);
    expect(made).toEqual([]);
    const call = await calls.get('call-a');
    expect(call).toMatchObject({ trackingPaused: true, nextPollAt: null });
    expect(call?.lastError).toMatch(/needs the key for api\.a\.example/);
    expect(call?.lastError).not.toContain('key-for-service');
  });

  it('is not stopped with another service’s key', async () => {
    const calls = service();
    await calls.stop('call-a');
    await calls.idle();
    expect(made).toEqual([]);
    expect((await calls.get('call-a'))?.lastError).toMatch(/needs the key for api\.a\.example/);
    await writeKey(A, 'key-for-service-a', true);
    await calls.retry('call-a');
    await calls.idle();
    expect(made.every((m) => m.key === 'key-for-service-a' && m.baseUrl.startsWith(A))).toBe(true);
    expect(made.length).toBeGreaterThan(0);
  });
});

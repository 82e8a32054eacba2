import { describe, expect, it } from 'vitest';
import { newCallRecord } from '../../../lib/calls/dial';
import type { CallRecord } from '../../../lib/calls/call-record';
import { MAX_CALLS, readCalls, upsertCall, writeCalls } from '../../../lib/calls/history';

const call = (id: string, finished = true): CallRecord => ({
  ...newCallRecord({ id, baseUrl: 'http://x', agentId: 'a', agentName: 'A', toNumber: '+14155552671', fromNumber: null, variables: {} }, 1),
  step: finished ? ('finished' as const) : ('tracking' as const),
});

describe('call history storage', () => {
  it('round-trips through the versioned container', () => {
    const stored = JSON.parse(JSON.stringify(writeCalls([call('a'), call('b')])));
    expect(readCalls(stored).calls.map((c) => c.id)).toEqual(['a', 'b']);
  });
  it('migrates the version-0 bare array', () => {
    expect(readCalls([call('a')]).calls).toHaveLength(1);
  });
  it('drops an unreadable record and says so, keeping the rest', () => {
    const { calls, problems } = readCalls({ version: 1, calls: [call('a'), { id: 'broken' }] });
    expect(calls.map((c) => c.id)).toEqual(['a']);
    expect(problems[0]).toMatch(/could not be read/);
  });
  it('refuses a newer version rather than misreading it', () => {
    expect(readCalls({ version: 99, calls: [] }).problems[0]).toMatch(/newer version/);
  });
  it('puts new calls first, replaces in place, and trims only finished calls', () => {
    let calls: CallRecord[] = [call('active', false)];
    for (let i = 0; i < MAX_CALLS + 5; i++) calls = upsertCall(calls, call(`f${i}`));
    expect(calls).toHaveLength(MAX_CALLS);
    expect(calls.some((c) => c.id === 'active')).toBe(true);
    expect(calls[0]!.id).toBe(`f${MAX_CALLS + 4}`);
    const replaced = upsertCall(calls, { ...calls[3]!, status: 'busy' });
    expect(replaced[3]!.status).toBe('busy');
  });
});

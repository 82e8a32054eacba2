// Plans and runs as stored: versioned containers, each item checked, nothing unreadable dropped.
import { describe, expect, it } from 'vitest';
import { finish, newRun } from '../../../lib/plans/run-state';
import { PLANS_VERSION, readPlans, readRuns, writePlans, writeRuns } from '../../../lib/plans/store';
import { plan } from './fixtures';

const p = plan({ cases: [{ id: 'ok', label: 'Callback', contact_number: '+14155550123' }] });
const stored = { id: 'plan-1', plan: p, updatedAt: 1 };

describe('readPlans', () => {
  it('reads what writePlans wrote, and nothing from an empty store', () => {
    expect(readPlans(writePlans([stored]))).toEqual({ items: [stored], keepAside: [] });
    expect(readPlans(undefined)).toEqual({ items: [], keepAside: [] });
  });

  it('checks each stored plan with the import schema: an unreadable one is kept aside with its problems, the rest read', () => {
    const broken = { id: 'plan-2', plan: { ...p, cases: [{ ...p.cases[0], contact_number: '555' }] }, updatedAt: 2 };
    const read = readPlans({ version: PLANS_VERSION, plans: [stored, broken, 'junk'] });
    expect(read.items).toEqual([stored]);
    expect(read.keepAside.map((k) => k.value)).toEqual([broken, 'junk']);
    expect(read.keepAside[0]!.reason).toMatch(/cases\[0\]\.contact_number/);
  });

  it('keeps a whole value aside when it is unreadable or from a newer version', () => {
    expect(readPlans('nonsense').keepAside[0]!.reason).toMatch(/unreadable/);
    const newer = { version: PLANS_VERSION + 1, plans: [stored] };
    const read = readPlans(newer);
    expect(read.items).toEqual([]);
    expect(read.keepAside).toEqual([{ reason: expect.stringMatching(/newer version \(2\)/), value: newer }]);
  });

  it('a stored plan written for a newer plan file version is kept aside, not misread', () => {
    const read = readPlans(writePlans([{ ...stored, plan: { ...p, version: 2 } as never }]));
    expect(read.items).toEqual([]);
    expect(read.keepAside[0]!.reason).toMatch(/version 2/);
  });
});

describe('readRuns', () => {
  const run = finish(newRun({ id: 'run-1', planId: 'plan-1', plan: p, baseUrl: 'http://x' }, 1), 2);

  it('reads what writeRuns wrote', () => {
    const read = readRuns(JSON.parse(JSON.stringify(writeRuns([run]))));
    expect(read.keepAside).toEqual([]);
    expect(read.items).toHaveLength(1);
    expect(read.items[0]).toMatchObject({ id: 'run-1', phase: 'finished', result: { verdict: 'error' } });
  });

  it('keeps aside a run missing its state, and a container from a newer version', () => {
    const { phase: _phase, ...noPhase } = run;
    expect(readRuns(writeRuns([noPhase as never, run])).keepAside).toHaveLength(1);
    expect(readRuns({ version: 9, runs: [] }).keepAside[0]!.reason).toMatch(/newer version/);
  });
});

/**
 * The fault table's shared half: the real sandbox (its clock and its fault injection), the table of
 * cases, and the loop that plays a case on a calling path. Used by fault-table.test.ts (single call,
 * Start now, the side panel's plan run, the command line) and fault-table-batches.test.ts (the
 * Batches section), so every path runs the same cases with the same faults and the same Stop moments.
 * Each test file mocks the key store itself (vi.mock is hoisted per test file).
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { clockReadingFetch } from '../../../lib/api/clock';
import { createClient } from '../../../lib/api/client';
import { startSandbox, type Sandbox } from '../../../sandbox/server';
import { call as request } from '../../../sandbox/testing';
import { SEED } from '../../../sandbox/seed';

export const AGENT = SEED.A.agents.sales;
const SPEED = 60; // the two minutes before a batch starts take 2.25 s; a call about half a second
export let sb: Sandbox;

/** One sandbox per test file, reset (state, faults, clock) before each case. */
export function useSandbox(): void {
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, speed: SPEED });
  });
  afterAll(() => sb.close());
  beforeEach(async () => {
    fakeBrowser.reset();
    sb.reset();
    await clock(SPEED);
  });
}

/**
 * The sandbox's pace from now on. A schedule landing late races the stop against the batch's start;
 * at speed 60 that start is 2.25 s away, which a loaded two-core machine (two test workers) can
 * miss by its own slowness: those rows run at speed 15 (8 s), the rule they check unchanged.
 */
export const clock = (speed: number) =>
  fetch(`${sb.url}/__sandbox/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ speed }) });
export const LATE_SCHEDULE_SPEED = 15;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const fault = (spec: Record<string, unknown>) =>
  fetch(`${sb.url}/__sandbox/faults`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(spec) });
export const clearFaults = () => fetch(`${sb.url}/__sandbox/faults`, { method: 'DELETE' });
export const get = async <T>(path: string) => (await request(sb.url, 'GET', path)).body as T;
export { request };

type Placing = 'create' | 'schedule' | 'call' | 'stop';
export interface Case {
  name: string;
  /** Which placing request the fault hits; `stop` faults apply once the stop is sent. */
  faults?: (placing: 'batch' | 'call') => Array<Record<string, unknown>>;
  /** Restart the shell (a worker stop) between every two steps. */
  restart?: boolean;
  /** Press Stop: while the named request is held at the service, or once the placement is followed. */
  stop?: Placing | 'following';
  /** The schedule is held past the client's timeout and lands late; Stop is pressed once the client gave up on it. */
  lateSchedule?: boolean;
}

export const placingPath = { create: '^/batches$', schedule: 'schedule$', call: '^/call$', stop: '/stop$' } as const;
export const at = (placing: 'batch' | 'call', which: 'create' | 'schedule') => (placing === 'call' ? placingPath.call : placingPath[which]);

export const CASES: Case[] = [
  { name: 'no fault' },
  { name: 'answer lost after the create or POST /call', faults: (p) => [{ method: 'POST', path: at(p, 'create'), dropAfter: true }] },
  { name: 'answer lost after the schedule', faults: (p) => (p === 'batch' ? [{ method: 'POST', path: placingPath.schedule, dropAfter: true }] : []) },
  { name: '429 with Retry-After on the placing request', faults: (p) => [{ method: 'POST', path: at(p, 'create'), status: 429, retryAfter: 1 }] },
  { name: '503 on the schedule (or POST /call)', faults: (p) => [{ method: 'POST', path: at(p, 'schedule'), status: 503 }] },
  { name: 'a dropped connection on the placing request', faults: (p) => [{ method: 'POST', path: at(p, 'create'), drop: true }] },
  { name: 'a worker stop between every two steps', restart: true, faults: (p) => [{ method: 'POST', path: at(p, 'create'), dropAfter: true }] },
  { name: 'Stop pressed while the create or POST /call is in flight', stop: 'create' },
  { name: 'Stop pressed while the schedule is in flight, its answer lost', stop: 'schedule' },
  { name: 'Stop pressed while the placement is followed', stop: 'following' },
  { name: 'Stop pressed while followed, the stop’s answer lost', stop: 'following', faults: () => [{ method: 'POST', path: placingPath.stop, dropAfter: true }] },
  { name: 'a schedule that timed out lands after Stop: the batch read back as created is deleted, nothing rings', stop: 'schedule', lateSchedule: true },
];

/** The background's client, with a short timeout where a case needs a request to time out while the service still holds it. */
export const makeClient = (timeoutMs?: number) => (baseUrl: string, key: string) => {
  const { fetch: reading, clock } = clockReadingFetch();
  return Object.assign(createClient({ baseUrl, apiKey: key, fetch: reading, ...(timeoutMs ? { timeoutMs } : {}) }), { baseUrl }, clock);
};

/**
 * The held request a Stop case presses Stop against (the service holds it 700 ms), or the late schedule's
 * (held past the client's timeout, landing after the Stop). `answerLost`: the held request acts and its
 * answer never comes (a schedule's always; a create's where the path's Stop needs the batch to exist).
 */
export async function holdFor(c: Case, placing: 'batch' | 'call', answerLost = false): Promise<void> {
  if (c.lateSchedule) {
    await clock(LATE_SCHEDULE_SPEED);
    await fault({ method: 'POST', path: placingPath.schedule, delayMs: 1_500, count: 1 });
  } else if (c.stop === 'create' || c.stop === 'schedule') {
    const which = c.stop === 'create' ? at(placing, 'create') : placingPath.schedule;
    await fault({ method: 'POST', path: which, delayMs: 700, dropAfter: c.stop === 'schedule' || answerLost, count: 1 });
  }
}

/** The step a record is at, as the Stop cases read it. */
export interface Attempts {
  create: number;
  schedule: number;
  call: number;
  following: boolean;
  timedOut: boolean;
}

/** Whether the case's Stop is due now: its request is in flight (or, late, timed out), or the placement is followed. */
export const stopIsDue = (c: Case, a: Attempts) =>
  (c.stop === 'create' && (a.create > 0 || a.call > 0)) ||
  (c.stop === 'schedule' && a.schedule > 0 && (!c.lateSchedule || a.timedOut)) ||
  (c.stop === 'following' && a.following);

/** What a path must say at the end, read from its own record and from the sandbox. */
export interface Ending {
  /** Batches (or immediate calls) the service holds for this intent. */
  placed: number;
  /** The status the record shows per number, and the sandbox's status for the same number ('none': nothing was placed). */
  statuses: Array<{ number: string; ours: string | null; service: string }>;
}

export interface Path {
  name: string;
  placing: 'batch' | 'call';
  /** Places one intent; resolves when the shell has taken it. */
  start(id: string, numbers: string[]): Promise<void>;
  stop(id: string): Promise<void>;
  /** One round of due steps (a fresh shell each round when `restart`). Answers true once the placement has ended. */
  round(id: string, restart: boolean): Promise<boolean>;
  /** The numbers' statuses as the record shows them. */
  ours(id: string, numbers: string[]): Promise<Array<string | null>>;
  /** The step the record is at, for "Stop while … is in flight". */
  attempts(id: string): Promise<Attempts>;
  /** Batches or immediate calls the service holds for this intent. */
  placed(id: string): Promise<Array<{ batchId?: string; executionId?: string }>>;
  /** The path's Stop names a batch the user sees: the held create makes it and loses its answer, so Stop comes before the create step is done. */
  stopsListedBatch?: boolean;
}

export async function batchesNamed(fileName: string) {
  return (await get<Array<{ batch_id: string; file_name?: string; status: string }>>(`/batches/${AGENT}/all`)).filter((b) => b.file_name === fileName);
}
export async function serviceStatus(placed: Array<{ batchId?: string; executionId?: string }>, number: string): Promise<string> {
  for (const p of placed) {
    if (p.executionId) return (await get<{ status: string }>(`/executions/${p.executionId}`)).status;
    const rows = await get<Array<{ status: string; telephony_data?: { to_number?: string } }>>(`/batches/${p.batchId}/executions`);
    const row = rows.find((r) => r.telephony_data?.to_number === number);
    if (row) return row.status;
    return (await get<{ status: string }>(`/batches/${p.batchId}`)).status === 'stopped' ? 'stopped' : 'none';
  }
  return 'none';
}

/**
 * Plays one case on a path: its faults, its held request, the Stop at its moment, rounds of due steps
 * (a fresh shell each round for `restart`) until the placement ends; then what the record and the
 * sandbox say. `rows`: numbers in the placement (a batch of N rows).
 */
export async function play(path: Path, c: Case, index: number, rows = 1): Promise<Ending> {
  const id = `${path.name.replace(/\W+/g, '-')}-${index}`;
  const numbers = Array.from({ length: rows }, (_, i) => `+1415${String(300 + index * rows + i).padStart(3, '0')}2671`);
  for (const spec of c.faults?.(path.placing) ?? []) await fault({ count: 1, ...spec });
  await holdFor(c, path.placing, path.stopsListedBatch);
  await path.start(id, numbers);
  let stopped = false;
  const deadline = Date.now() + 25_000;
  for (;;) {
    if (c.stop && !stopped && stopIsDue(c, await path.attempts(id))) {
      await path.stop(id);
      stopped = true;
    }
    if (await path.round(id, !!c.restart)) break;
    if (Date.now() > deadline) throw new Error(`${path.name}: "${c.name}" did not end`);
    await sleep(c.stop && !stopped ? 10 : 100);
  }
  await clearFaults();
  await sleep(c.lateSchedule ? 2_000 : 300); // a request held by the service, or a schedule landing late, has had its chance to act
  const placed = await path.placed(id);
  const ours = await path.ours(id, numbers);
  const statuses = await Promise.all(numbers.map(async (number, i) => ({ number, ours: ours[i] ?? null, service: await serviceStatus(placed, number) })));
  return { placed: placed.length, statuses };
}

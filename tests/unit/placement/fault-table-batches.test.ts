/**
 * The fault table on its fifth path: the side panel's Batches section. A contact list the user uploads
 * is a placement of N rows without judging, made when the user creates it and scheduled at the time the
 * user picks — its own shell (BatchPlacementsService) on the same engine. Every case of the table runs
 * here, played by the same loop as the other paths (fault-table-support.ts), against the real sandbox.
 *
 * What the user does on this path: waits for the create, then picks a start 2¼ minutes ahead; presses
 * Stop on the batch the section lists (it names a batch id, so a Stop "during the create" is pressed as
 * soon as the batch shows in the list while the create's answer is not in); after a worker stop the
 * panel's create gets no answer, and the user schedules the batch the list shows. Each case also has a
 * batch of the same name made earlier by someone else, which is never taken for this one nor removed.
 */
import { describe, expect, it, vi } from 'vitest';
import { BatchPlacementsService } from '../../../lib/background/batch-placements';
import { AGENT, batchesNamed, CASES, get, makeClient, play, request, sb, sleep, useSandbox, type Case, type Path } from './fault-table-support';

vi.mock('../../../lib/background/key-store', () => ({
  originOf: (baseUrl: string) => new URL(baseUrl).origin,
  readKeyFor: async (origin: string) => ({ origin, key: 'va_test_owner', remember: true }),
}));

useSandbox();

/** A worker that stops mid-create never answers the panel: the create's wait between its tries never ends there. */
const workerGone = () => new Promise<void>(() => undefined);

interface BatchesPath extends Path {
  /** What the user's create, then schedule, answered: the record, or the refusal. */
  answered(): Promise<unknown>;
  /** The placement's record, as the section's shell holds it. */
  record(): ReturnType<BatchPlacementsService['get']>;
  dispose(): void;
}

function batchesPath(c: Case, fileName: string, older: string): BatchesPath {
  const client = makeClient(c.lateSchedule ? 400 : undefined);
  const wait = c.restart ? workerGone : undefined;
  let shell = new BatchPlacementsService(Date.now, client, wait);
  let flow: Promise<unknown> = Promise.resolve(undefined);
  let placement = '';
  let stopped = false;
  let scheduleAsked = false;
  /** The batch the section lists for this upload (the older one of the same name is not it). */
  const listed = async () => (await batchesNamed(fileName)).find((b) => b.batch_id !== older);
  /** The user's own start, 2¼ minutes ahead (2.25 s at the sandbox's speed). */
  const schedule = (batchId: string) => {
    scheduleAsked = true;
    return shell.schedule({ baseUrl: sb.url, agentId: AGENT, batchId, at: new Date(Date.now() + 135_000).toISOString() });
  };
  return {
    name: 'Batches section',
    placing: 'batch',
    stopsListedBatch: true,
    async start(id, numbers) {
      placement = id;
      const csv = `contact_number\n${numbers.join('\n')}\n`;
      flow = (async () => {
        const made = await shell.create({ id, baseUrl: sb.url, agentId: AGENT, fileName, csv });
        return stopped ? made : await schedule(made.batchId!);
      })().catch((e: Error) => e);
      // The user waits for the create and the schedule, unless a Stop comes meanwhile or the worker stops.
      if (!c.stop && !c.restart) await flow;
    },
    async stop(id) {
      stopped = true;
      const deadline = Date.now() + 10_000;
      let batchId = (await shell.get(id))?.batchId ?? null;
      while (!batchId) {
        if (Date.now() > deadline) throw new Error('the batch never showed in the list');
        await sleep(10);
        batchId = (await listed())?.batch_id ?? null;
      }
      await shell.stop({ baseUrl: sb.url, agentId: AGENT, batchId });
    },
    async round(id, restart) {
      if (restart) {
        shell.dispose();
        await shell.idle();
        shell = new BatchPlacementsService(Date.now, client, wait);
        // The panel's create got no answer; the list shows the batch made: the user picks its start.
        const made = scheduleAsked ? undefined : await listed();
        if (made?.status === 'created') await schedule(made.batch_id);
      }
      await shell.runDue();
      await shell.idle();

      return (await shell.get(id))?.step === 'finished';
    },
    async ours(id, numbers) {
      const r = await shell.get(id);
      return numbers.map(() => r?.status ?? null);
    },
    async attempts(id) {
      const r = await shell.get(id);
      if (!r) return { create: 0, schedule: 0, call: 0, following: false, timedOut: false };
      return { create: r.createAttempts, schedule: r.scheduleAttempts, call: 0, following: r.step === 'finding-execution' || r.step === 'tracking', timedOut: /did not answer/.test(r.lastError ?? '') };
    },
    async placed() {
      return (await batchesNamed(fileName)).filter((b) => b.batch_id !== older).map((b) => ({ batchId: b.batch_id }));
    },
    answered: () => flow,
    record: () => shell.get(placement),
    dispose: () => shell.dispose(),
  };
}

describe('Batches section (an uploaded list): the fault table', () => {
  CASES.forEach((c, index) => {
    it(c.name, { timeout: 40_000 }, async () => {
      const fileName = `uploaded-${index}.csv`;
      // A batch of the same name made earlier by someone else: never taken for this one, never removed.
      const form = new FormData();
      form.append('agent_id', AGENT);
      form.append('file', new Blob(['contact_number\n+14155550100\n'], { type: 'text/csv' }), fileName);
      const older = ((await request(sb.url, 'POST', '/batches', { body: form })).body as { batch_id: string }).batch_id;
      const path = batchesPath(c, fileName, older);
      // Two rows where nothing interferes with the steps' timing; one where a Stop or a held request does.
      const rows = c.stop || c.restart ? 1 : 2;
      try {
        const ending = await play(path, c, index, rows);
        const placed = await path.placed('');
        const ours = (await path.record())?.status ?? null;
        expect(await get<{ status: string }>(`/batches/${older}`)).toMatchObject({ status: 'created' });
        expect(ending.placed).toBeLessThanOrEqual(1);
        if (!c.stop) {
          expect(ending.placed).toBe(1);
          // The panel was answered with the batch placed (after a worker stop it got no answer, and scheduled the listed one).
          if (!c.restart) expect(await path.answered()).toMatchObject({ batchId: placed[0]!.batchId });
          // The record's status is the batch's; every row of the list was dialled.
          expect(ours).toBe((await get<{ status: string }>(`/batches/${placed[0]!.batchId}`)).status);
          for (const s of ending.statuses) expect(s.service).not.toBe('none');
        } else {
          // Stopped from the list before the create's answer came (no second try of it): the panel is told so, not handed a removed batch.
          if (c.stop === 'create' && (await path.record())?.createAttempts === 1) expect(String(await path.answered())).toMatch(/stopped before it was scheduled/);
          const batch = placed[0] ? await get<{ status: string }>(`/batches/${placed[0].batchId}`) : null;
          expect(ours).toBe(batch?.status ?? 'stopped');
          for (const s of ending.statuses) expect(['stopped', 'none']).toContain(s.service);
        }
      } finally {
        path.dispose();
      }
    });
  });
});

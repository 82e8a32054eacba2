/**
 * The background's typed access to the data store's small records: each read parsed by its schema.
 * These are caches or derived state (refilled from the service or the key), so a value that does not
 * parse reads as absent rather than being kept aside; call history has its own store
 * (lib/background/call-store.ts), which never drops anything.
 */
import { z } from '../zod';
import type { RouteForms } from '../api/routes';
import { DATA, type AgentsCache, type KeyState } from '../storage-keys';
import { readRecord, writeRecord } from './data-db';
import { dataReady } from './migrate';

export const agentSummarySchema = z.object({ id: z.string(), name: z.string(), status: z.string().nullable(), manual: z.boolean() });
export const agentsCacheSchema = z.object({
  baseUrl: z.string(),
  agents: z.array(agentSummarySchema),
  fetchedAt: z.number().nullable(),
  listRouteMissing: z.boolean(),
});
export const routeMemorySchema = z.record(z.string(), z.record(z.string(), z.enum(['spec', 'live'])));
export const lastAgentIdSchema = z.string().min(1);
export const keyStateSchema = z.object({ hasKey: z.boolean(), keyHint: z.string().nullable(), keyOrigin: z.string().nullable().default(null) });

async function read<T>(name: (typeof DATA)[keyof typeof DATA], schema: z.ZodType<T>): Promise<T | undefined> {
  await dataReady();
  const parsed = schema.safeParse(await readRecord(name));
  return parsed.success ? parsed.data : undefined;
}

async function write(name: (typeof DATA)[keyof typeof DATA], value: unknown): Promise<void> {
  await dataReady();
  await writeRecord(name, value);
}

export const records = {
  agentsCache: {
    read: (): Promise<AgentsCache | undefined> => read(DATA.agentsCache, agentsCacheSchema),
    write: (cache: AgentsCache) => write(DATA.agentsCache, cache),
  },
  routeMemory: {
    read: async (): Promise<Record<string, RouteForms>> => (await read(DATA.routeMemory, routeMemorySchema)) ?? {},
    write: (all: Record<string, RouteForms>) => write(DATA.routeMemory, all),
  },
  lastAgentId: {
    read: (): Promise<string | undefined> => read(DATA.lastAgentId, lastAgentIdSchema),
    write: (agentId: string) => write(DATA.lastAgentId, agentId),
  },
  keyState: {
    read: (): Promise<KeyState | undefined> => read(DATA.keyState, keyStateSchema),
    write: (state: KeyState) => write(DATA.keyState, state),
  },
};

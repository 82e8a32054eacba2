/**
 * Every stored name the extension uses, in one place, by where it lives.
 *
 * `storage.local` is readable by content scripts, and its `onChanged` reaches every frame that
 * listens: it holds only what content scripts may see (settings). Everything from the service or
 * about calls lives in the extension origin's IndexedDB (lib/store/data-db.ts), out of their reach.
 * The API key has a database of its own (lib/background/secret-db.ts), read by key-store.ts only.
 */
export const STORAGE = {
  /** Settings (lib/settings/schema.ts), in storage.local. */
  settings: 'settings',
} as const;

/** Records of the data store (IndexedDB). The background writes them all; UI pages read them. */
export const DATA = {
  /** Recent calls (lib/calls/history.ts). */
  calls: 'calls',
  /** Cached agent list (AgentsCache below). */
  agentsCache: 'agents.cache',
  /** The agent of the last call placed: the default for page calls and the context menu. */
  lastAgentId: 'ui.lastAgentId',
  /** Which route form (spec or live) worked per base URL. */
  routeMemory: 'api.routeMemory',
  /** What UI may know of the key: whether one is stored, and its masked hint (KeyState below). */
  keyState: 'ui.keyState',
  /** Agent test plans kept by the extension (lib/plans/store.ts). */
  plans: 'plans',
  /** Runs of those plans: followed by the background, then kept with their results (lib/plans/store.ts). */
  planRuns: 'plans.runs',
  /** The Batches section's uploaded batches as placements: followed by the background until each is over (lib/background/batch-placements.ts). */
  batchPlacements: 'batches.placements',
  /** The data store's own version (lib/store/migrate.ts). */
  version: 'meta.version',
  /** Not a record: the name change notices use when something was kept aside (the quarantine store). */
  quarantine: 'quarantine',
} as const;
export type DataName = (typeof DATA)[keyof typeof DATA];

/** Keys that earlier versions kept in storage.local; moved into the data store once (lib/store/migrate.ts). */
export const LEGACY_LOCAL = {
  calls: 'calls',
  agentsCache: 'agents.cache',
  lastAgentId: 'ui.lastAgentId',
  routeMemory: 'api.routeMemory',
  hasKey: 'ui.hasKey',
  keyHint: 'ui.keyHint',
} as const;

import type { AgentSummary } from './messages';

export interface AgentsCache {
  baseUrl: string;
  agents: AgentSummary[];
  fetchedAt: number | null;
  listRouteMissing: boolean;
}

export interface KeyState {
  hasKey: boolean;
  /** Masked, e.g. `••••••••wner`; null when there is no key. */
  keyHint: string | null;
  /** The origin that key is for (the saved base URL's); null when there is none. */
  keyOrigin: string | null;
}

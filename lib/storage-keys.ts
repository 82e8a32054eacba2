/**
 * Every storage key the extension uses, in one place. The background writes all of them; UI pages
 * may read the non-secret ones directly (so the popup renders from cache at once) and watch them with
 * `storage.onChanged`. Keys under `secret.` are read by lib/background/key-store.ts only.
 */
export const STORAGE = {
  /** Settings (lib/settings/schema.ts), in storage.local. */
  settings: 'settings',
  /** Whether a key is stored, and its masked hint: what UI may know of the key. storage.local. */
  hasKey: 'ui.hasKey',
  keyHint: 'ui.keyHint',
  /** The origin that key is for. */
  keyOrigin: 'ui.keyOrigin',
  /** Cached agent list (AgentsCache below), in storage.local. */
  agentsCache: 'agents.cache',
  /** Recent calls (lib/calls/history.ts), in storage.local. */
  calls: 'calls',
  /** The agent of the last call placed: the default for page calls and the context menu. */
  lastAgentId: 'ui.lastAgentId',
  /** Which route form (spec or live) worked per base URL. */
  routeMemory: 'api.routeMemory',
} as const;

import type { AgentSummary } from './messages';

export interface AgentsCache {
  baseUrl: string;
  agents: AgentSummary[];
  fetchedAt: number | null;
  listRouteMissing: boolean;
}

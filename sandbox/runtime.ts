/** What route handlers and the call engine share for one running sandbox. */
import type { RateLimiter } from './auth';
import type { Faults } from './faults';
import type { Store } from './store';
import type { Timers } from './timers';
import type { Webhooks } from './webhooks';

/** Which route forms the sandbox answers: the spec's, the live service's, or both. */
export type RoutesMode = 'spec' | 'live' | 'both';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Time factor for call walks and waits (default 1); validation always uses the real clock. */
  speed?: number;
  /** Which forms of the routes exist (default both). */
  routes?: RoutesMode;
  /** Requests per minute per key before 429 (default 1000). */
  rateLimitPerMinute?: number;
  /** One line per request; default: silent. */
  log?: (line: string) => void;
}

export type ResolvedOptions = Required<SandboxOptions>;

export interface Runtime {
  store: Store;
  timers: Timers;
  webhooks: Webhooks;
  faults: Faults;
  limiter: RateLimiter;
  /** Mutable: the clock control can change `speed` while running. */
  options: ResolvedOptions;
  /** Base URL of this sandbox, used in recording URLs. */
  baseUrl: string;
  /** Signs recording URLs; new per process so old URLs die with the sandbox. */
  secret: string;
  /** Converts a duration at speed 1 into real milliseconds at the current speed. */
  scaled(ms: number): number;
}

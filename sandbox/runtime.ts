/** What route handlers and the call engine share for one running sandbox. */
import type { RateLimiter } from './auth';
import type { Faults } from './faults';
import type { SandboxOptions } from './server';
import type { Store } from './store';
import type { Timers } from './timers';
import type { Webhooks } from './webhooks';

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

/**
 * The account behind the key, as the side panel shows it: wallet balance and concurrency from `GET /user/me`, and
 * the one low-balance rule. Pure: no browser globals.
 */

/**
 * Below this wallet balance (in the wallet's currency, USD) the dial confirmation warns. $2.00 is a few calls: at the
 * sandbox's 7.5 ¢ a minute it is about five 5-minute calls, and fewer at the hosted service's usual rates.
 */
export const LOW_BALANCE = 2;

export interface AccountView {
  /** The service answers `GET /user/me`. When false, `reason` says why nothing is shown (no shouting). */
  available: boolean;
  reason: string | null;
  name: string | null;
  email: string | null;
  /** In currency units (dollars), as `GET /user/me` gives it; null when the answer has none. */
  wallet: number | null;
  concurrency: { max: number | null; current: number | null } | null;
}

const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The view of a `GET /user/me` answer. */
export function accountView(user: { name?: string | null; email?: string | null; wallet?: number | null; concurrency?: { max?: number | null; current?: number | null } | null }): AccountView {
  return {
    available: true,
    reason: null,
    name: user.name ?? null,
    email: user.email ?? null,
    wallet: finite(user.wallet),
    concurrency: user.concurrency ? { max: finite(user.concurrency.max), current: finite(user.concurrency.current) } : null,
  };
}

/** The service has no `GET /user/me` (the spec does not list it): a plain statement, not an error. */
export const ACCOUNT_UNAVAILABLE: AccountView = {
  available: false,
  reason: 'This service does not tell its wallet balance or concurrency (it has no GET /user/me).',
  name: null,
  email: null,
  wallet: null,
  concurrency: null,
};

export function isLowBalance(wallet: number | null | undefined): boolean {
  return typeof wallet === 'number' && Number.isFinite(wallet) && wallet < LOW_BALANCE;
}

/** Seeded API keys. Account letters refer to the seeded accounts of `seed.ts`. */
export const OWNER_KEY = 'va_test_owner';
export const READONLY_KEY = 'va_test_readonly';
export const OTHER_KEY = 'va_test_other';
export const EMPTY_WALLET_KEY = 'va_test_empty_wallet';

export type AccountLetter = 'A' | 'B' | 'C';

export interface KeyGrant {
  key: string;
  account: AccountLetter;
  /** A read-only key gets 403 on any write. */
  readOnly: boolean;
  purpose: string;
}

export const KEYS: readonly KeyGrant[] = [
  { key: OWNER_KEY, account: 'A', readOnly: false, purpose: 'account A, funded wallet: full access' },
  { key: READONLY_KEY, account: 'A', readOnly: true, purpose: 'account A, read-only: 403 on any write' },
  { key: OTHER_KEY, account: 'B', readOnly: false, purpose: "account B: its own agents; account A's ids answer 404" },
  { key: EMPTY_WALLET_KEY, account: 'C', readOnly: false, purpose: 'account C, empty wallet: every call ends balance-low' },
];

export function grantFor(key: string): KeyGrant | undefined {
  return KEYS.find((grant) => grant.key === key);
}

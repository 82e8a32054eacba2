// The account view of GET /user/me, the low-balance rule, and money in the person's locale.
import { describe, expect, it } from 'vitest';
import { accountView, isLowBalance, LOW_BALANCE } from '../../../lib/account/balance';
import { formatAmount } from '../../../lib/money';

describe('accountView', () => {
  it('keeps the wallet and concurrency the service gives', () => {
    expect(accountView({ name: 'Ada', email: 'a@x.test', wallet: 1250.75, concurrency: { max: 2, current: 1 } })).toEqual({
      available: true,
      reason: null,
      name: 'Ada',
      email: 'a@x.test',
      wallet: 1250.75,
      concurrency: { max: 2, current: 1 },
    });
  });

  it('reads missing or unreadable parts as unknown, not zero', () => {
    const view = accountView({ wallet: Number.NaN, concurrency: null });
    expect(view).toMatchObject({ wallet: null, concurrency: null, name: null, email: null });
    expect(accountView({}).wallet).toBeNull();
  });
});

describe('isLowBalance', () => {
  it.each([
    [0, true],
    [-3, true],
    [LOW_BALANCE - 0.01, true],
    [LOW_BALANCE, false],
    [1250.75, false],
    [null, false],
    [undefined, false],
    [Number.NaN, false],
  ])('%s → %s', (wallet, low) => expect(isLowBalance(wallet as number | null)).toBe(low));
});

describe('the wallet through formatAmount', () => {
  it('formats dollars in the given locale and says — for nothing', () => {
    expect(formatAmount(1250.75, 'USD', 'en-US')).toBe('$1,250.75');
    expect(formatAmount(1250.75, 'USD', 'de-DE')).toMatch(/^1\.250,75\s\$$/);
    expect(formatAmount(null, 'USD', 'en-US')).toBe('—');
  });
});

import { describe, expect, it } from 'vitest';
import { ACCOUNT_CURRENCY, formatAmount, formatCents } from '../../lib/money';

describe('money: one formatter for every cost, price and balance', () => {
  it('the service’s cents in the account’s currency, two decimals', () => {
    expect(formatCents(42, ACCOUNT_CURRENCY, 'en-US')).toBe('$0.42');
    expect(formatCents(1234, 'USD', 'en-US')).toBe('$12.34');
    expect(formatCents(0, 'USD', 'en-US')).toBe('$0.00');
    // A cost with fractions of a cent above one cent keeps two decimals: never "$0.0512".
    expect(formatCents(5.12, 'USD', 'en-US')).toBe('$0.05');
    expect(formatCents(12.5, 'USD', 'en-US')).toBe('$0.13');
    expect(formatCents(463.4, 'USD', 'en-US')).toBe('$4.63');
  });

  it('more decimals only where it costs less than a cent, enough to say how much', () => {
    expect(formatCents(0.5, 'USD', 'en-US')).toBe('$0.005');
    expect(formatCents(0.125, 'USD', 'en-US')).toBe('$0.0013');
    expect(formatCents(0.75, 'USD', 'en-US')).toBe('$0.0075');
  });

  it('nothing usable is a dash', () => {
    expect(formatCents(null)).toBe('—');
    expect(formatCents(undefined)).toBe('—');
    expect(formatCents(Number.NaN)).toBe('—');
  });

  it('amounts the service gives in currency units (wallet, number prices) read the same way', () => {
    expect(formatAmount(1.15, 'USD', 'en-US')).toBe('$1.15');
    expect(formatAmount(2, 'USD', 'en-US')).toBe('$2.00');
    expect(formatAmount(1250.75, 'USD', 'en-US')).toBe('$1,250.75');
    expect(formatAmount(0.0075, 'USD', 'en-US')).toBe('$0.0075');
  });

  it('in German: decimal comma, the symbol after', () => {
    expect(formatCents(42, 'USD', 'de-DE')).toBe('0,42\u00a0$');
    expect(formatCents(5.12, 'USD', 'de-DE')).toBe('0,05\u00a0$');
  });
});

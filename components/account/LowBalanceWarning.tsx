import { isLowBalance, LOW_BALANCE } from '../../lib/account/balance';
import { ACCOUNT_CURRENCY, formatAmount } from '../../lib/money';
import { t, uiLocale } from '../../lib/i18n';
import { useAccount } from './useAccount';

const locale = uiLocale;

/**
 * Shown in the dial confirmation when the wallet is below LOW_BALANCE. Says nothing when the balance is fine, unknown
 * (a service without /user/me) or could not be read: the confirmation is not the place to report that.
 */
export function LowBalanceWarning() {
  const { state } = useAccount();
  if (state.step !== 'ready' || !state.account.available || !isLowBalance(state.account.wallet)) return null;
  return (
    <p class="message message-warning low-balance" role="alert">
      {t('account_lowBalanceDial', formatAmount(state.account.wallet, ACCOUNT_CURRENCY, locale()), formatAmount(LOW_BALANCE, ACCOUNT_CURRENCY, locale()))}
    </p>
  );
}

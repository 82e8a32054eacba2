import { formatMoney, isLowBalance, LOW_BALANCE } from '../../lib/account/balance';
import { useAccount } from './useAccount';

const locale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);

/**
 * Shown in the dial confirmation when the wallet is below LOW_BALANCE. Says nothing when the balance is fine, unknown
 * (a service without /user/me) or could not be read: the confirmation is not the place to report that.
 */
export function LowBalanceWarning() {
  const { state } = useAccount();
  if (state.step !== 'ready' || !state.account.available || !isLowBalance(state.account.wallet)) return null;
  return (
    <p class="message message-warning low-balance" role="alert">
      Low balance: the wallet holds {formatMoney(state.account.wallet, locale())}, below {formatMoney(LOW_BALANCE, locale())}. This call may end
      with “Balance too low”.
    </p>
  );
}

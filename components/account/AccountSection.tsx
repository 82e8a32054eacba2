import { formatMoney, isLowBalance, LOW_BALANCE } from '../../lib/account/balance';
import { ErrorMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { useAccount } from './useAccount';

const locale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);
const count = (n: number | null) => (n === null ? '—' : new Intl.NumberFormat(locale()).format(n));

/** The side panel's Account section: wallet balance and concurrency from the service, where it tells them. */
export function AccountSection(_props: SectionProps) {
  const { state, reload } = useAccount();
  const account = state.step === 'ready' ? state.account : null;
  return (
    <section class="account" aria-label="Account">
      <p class="hint" role="status" aria-live="polite">
        {state.step === 'loading' ? 'Loading the account…' : account && !account.available ? account.reason : ''}
      </p>
      <ErrorMessage>{state.step === 'failed' ? `The account could not be loaded: ${state.message}` : null}</ErrorMessage>
      {account?.available ? (
        <>
          <dl class="details account-details">
            <dt>Account</dt>
            <dd>{[account.name, account.email].filter(Boolean).join(' · ') || '—'}</dd>
            <dt>Wallet balance</dt>
            <dd data-testid="wallet-balance">{formatMoney(account.wallet, locale())}</dd>
            <dt>Calls at once</dt>
            <dd>
              {account.concurrency
                ? `${count(account.concurrency.current)} in progress of at most ${count(account.concurrency.max)}`
                : 'Not told by the service'}
            </dd>
          </dl>
          {isLowBalance(account.wallet) ? (
            <p class="message message-warning">
              The balance is below {formatMoney(LOW_BALANCE, locale())}: calls may end with “Balance too low”. Top up the wallet on the
              service’s dashboard.
            </p>
          ) : null}
        </>
      ) : null}
      <div class="actions">
        <button type="button" class="secondary small" onClick={reload} disabled={state.step === 'loading'}>
          Refresh
        </button>
      </div>
    </section>
  );
}

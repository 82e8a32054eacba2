import { isLowBalance, LOW_BALANCE } from '../../lib/account/balance';
import { ACCOUNT_CURRENCY, formatAmount } from '../../lib/money';
import { t, uiLocale } from '../../lib/i18n';
import { ErrorMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { useAccount } from './useAccount';

const locale = uiLocale;
const count = (n: number | null) => (n === null ? '—' : new Intl.NumberFormat(locale()).format(n));

/** The side panel's Account section: wallet balance and concurrency from the service, where it tells them. */
export function AccountSection(_props: SectionProps) {
  const { state, reload } = useAccount();
  const account = state.step === 'ready' ? state.account : null;
  return (
    <section class="account" aria-label={t('account_section')}>
      <p class="hint" role="status" aria-live="polite">
        {state.step === 'loading' ? t('account_loading') : account && !account.available ? t('account_unavailable') : ''}
      </p>
      <ErrorMessage>{state.step === 'failed' ? t('account_notLoaded', state.message) : null}</ErrorMessage>
      {account?.available ? (
        <>
          <dl class="details account-details">
            <dt>{t('account_account')}</dt>
            <dd>{[account.name, account.email].filter(Boolean).join(' · ') || '—'}</dd>
            <dt>{t('account_wallet')}</dt>
            <dd data-testid="wallet-balance">{formatAmount(account.wallet, ACCOUNT_CURRENCY, locale())}</dd>
            <dt>{t('account_callsAtOnce')}</dt>
            <dd>
              {account.concurrency
                ? t('account_concurrency', count(account.concurrency.current), count(account.concurrency.max))
                : t('account_notTold')}
            </dd>
          </dl>
          {isLowBalance(account.wallet) ? (
            <p class="message message-warning">
              {t('account_lowBalance', formatAmount(LOW_BALANCE, ACCOUNT_CURRENCY, locale()))}
            </p>
          ) : null}
        </>
      ) : null}
      <div class="actions">
        <button type="button" class="secondary small" onClick={reload} disabled={state.step === 'loading'}>
          {t('account_refresh')}
        </button>
      </div>
    </section>
  );
}

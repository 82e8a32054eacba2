import { useEffect, useState } from 'preact/hooks';
import type { AccountView } from '../../lib/account/balance';
import { t } from '../../lib/i18n';
import { send } from '../../lib/ui/send';

export type AccountState = { step: 'loading' } | { step: 'ready'; account: AccountView } | { step: 'failed'; message: string };

/** The account behind the key, asked of the background once per mount (and again on `reload`). */
export function useAccount(): { state: AccountState; reload(): void } {
  const [state, setState] = useState<AccountState>({ step: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState({ step: 'loading' });
    send({ type: 'account/get' })
      .then((reply) => {
        if (!live) return;
        if (!reply.ok) setState({ step: 'failed', message: reply.error.message });
        else if (reply.data && typeof reply.data === 'object') setState({ step: 'ready', account: reply.data });
        else setState({ step: 'failed', message: t('account_noAccount') });
      })
      .catch((error: unknown) => live && setState({ step: 'failed', message: error instanceof Error ? error.message : String(error) }));
    return () => {
      live = false;
    };
  }, [round]);
  return { state, reload: () => setRound((n) => n + 1) };
}

import { useEffect, useState } from 'preact/hooks';
import type { PhoneNumber } from '../../lib/api/schemas/phone-number';
import { t } from '../../lib/i18n';
import { formatPrice } from '../../lib/numbers/price';
import { formatDateTime } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ConfirmBox } from '../shared/ConfirmBox';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { BuyNumber } from './BuyNumber';
import { DataTable } from '../shared/DataTable';
import { uiLocale } from '../../lib/locale';
import { EmptyState } from '../shared/EmptyState';


/** The side panel's Numbers section: the account's numbers (delete after a confirmation) and buying new ones. */
export function PhoneNumbersSection(_props: SectionProps) {
  const [numbers, setNumbers] = useState<PhoneNumber[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [doomed, setDoomed] = useState<PhoneNumber | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');

  async function load() {
    setLoading(true);
    const reply = await send({ type: 'phone-numbers/owned' });
    setLoading(false);
    if (reply.ok) {
      setNumbers(reply.data);
      setLoadError(null);
    } else setLoadError(t('numbers_notLoaded', reply.error.message));
  }

  useEffect(() => {
    void load();
  }, []);

  async function remove(number: PhoneNumber) {
    setDeleting(true);
    setDeleteError(null);
    const reply = await send({ type: 'phone-numbers/delete', id: number.id });
    setDeleting(false);
    if (!reply.ok) {
      setDeleteError(t('numbers_notDeleted', number.phone_number, reply.error.message));
      return;
    }
    setDoomed(null);
    setNotice(t('numbers_deleted', number.phone_number));
    await load();
  }

  return (
    <div class="numbers-section">
      <section aria-labelledby="owned-numbers-title">
        <h2 id="owned-numbers-title">{t('numbers_yoursTitle')}</h2>
        <ErrorMessage>{loadError}</ErrorMessage>
        <StatusMessage>{notice}</StatusMessage>
        {numbers === null ? (
          <p class="hint">{loading ? t('numbers_loading') : ''}</p>
        ) : numbers.length === 0 ? (
          <EmptyState text={t('numbers_none')} action={t('numbers_buyOne')} focusId="number-search-pattern" />
        ) : (
          <DataTable class="owned-numbers" caption={t('numbers_ownedCaption')} columns={[t('numbers_colNumber'), t('numbers_colProvider'), t('numbers_colPrice'), t('numbers_colRenews')]} actionColumn={t('numbers_colAction')}>
            {numbers.map((number) => (
              <tr key={number.id}>
                <td class="mono">{number.phone_number}</td>
                <td>{number.telephony_provider ?? '—'}</td>
                <td>{formatPrice(number.price, uiLocale()) ?? '—'}</td>
                <td>{number.renewal_at ? formatDateTime(number.renewal_at) : '—'}</td>
                <td>
                  <button
                    type="button"
                    class="secondary small"
                    aria-label={t('numbers_deleteNumber', number.phone_number)}
                    disabled={deleting}
                    onClick={() => {
                      setDeleteError(null);
                      setDoomed(number);
                    }}
                  >
                    {t('numbers_delete')}
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <div class="actions">
          <button type="button" class="secondary small" disabled={loading} onClick={() => void load()}>
            {t('numbers_refresh')}
          </button>
        </div>
        {doomed ? (
          <ConfirmBox
            title={t('numbers_deleteConfirmTitle', doomed.phone_number)}
            confirmLabel={t('numbers_deleteNumber', doomed.phone_number)}
            danger
            busy={deleting}
            error={deleteError}
            onConfirm={() => void remove(doomed)}
            onCancel={() => setDoomed(null)}
          >
            <p>{t('numbers_releaseWarning', doomed.phone_number)}</p>
            {doomed.agent_id ? <p>{t('numbers_linkedWarning')}</p> : null}
          </ConfirmBox>
        ) : null}
      </section>
      <BuyNumber
        onBought={(phoneNumber) => {
          setNotice(t('numbers_bought', phoneNumber));
          void load();
        }}
      />
    </div>
  );
}

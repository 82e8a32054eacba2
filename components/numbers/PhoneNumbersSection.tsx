import { useEffect, useState } from 'preact/hooks';
import type { PhoneNumber } from '../../lib/api/schemas/phone-number';
import { formatPrice } from '../../lib/numbers/price';
import { formatDateTime } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ConfirmBox } from '../shared/ConfirmBox';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { BuyNumber } from './BuyNumber';

const locale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);

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
    } else setLoadError(`Your numbers could not be loaded: ${reply.error.message}`);
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
      setDeleteError(`${number.phone_number} was not deleted: ${reply.error.message}`);
      return;
    }
    setDoomed(null);
    setNotice(`${number.phone_number} was deleted.`);
    await load();
  }

  return (
    <div class="numbers-section">
      <section aria-labelledby="owned-numbers-title">
        <h2 id="owned-numbers-title">Your numbers</h2>
        <ErrorMessage>{loadError}</ErrorMessage>
        <StatusMessage>{notice}</StatusMessage>
        {numbers === null ? (
          <p class="hint">{loading ? 'Loading your numbers…' : ''}</p>
        ) : numbers.length === 0 ? (
          <p class="hint">This account has no numbers yet. Calls go out from the service’s default numbers.</p>
        ) : (
          <div class="table-scroll">
            <table class="owned-numbers">
              <caption class="visually-hidden">Numbers of this account</caption>
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Price</th>
                  <th scope="col">Renews</th>
                  <th scope="col">
                    <span class="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {numbers.map((number) => (
                  <tr key={number.id}>
                    <td class="mono">{number.phone_number}</td>
                    <td>{number.telephony_provider ?? '—'}</td>
                    <td>{formatPrice(number.price, locale()) ?? '—'}</td>
                    <td>{number.renewal_at ? formatDateTime(number.renewal_at) : '—'}</td>
                    <td>
                      <button
                        type="button"
                        class="secondary small"
                        aria-label={`Delete ${number.phone_number}`}
                        disabled={deleting}
                        onClick={() => {
                          setDeleteError(null);
                          setDoomed(number);
                        }}
                      >
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <div class="actions">
          <button type="button" class="secondary small" disabled={loading} onClick={() => void load()}>
            Refresh
          </button>
        </div>
        {doomed ? (
          <ConfirmBox
            title={`Delete ${doomed.phone_number}?`}
            confirmLabel={`Delete ${doomed.phone_number}`}
            danger
            busy={deleting}
            error={deleteError}
            onConfirm={() => void remove(doomed)}
            onCancel={() => setDoomed(null)}
          >
            <p>The number {doomed.phone_number} is released from your account, and calls can no longer be placed from it. This cannot be undone.</p>
            {doomed.agent_id ? <p>Calls to this number will no longer reach the agent it is linked to.</p> : null}
          </ConfirmBox>
        ) : null}
      </section>
      <BuyNumber
        onBought={(phoneNumber) => {
          setNotice(`${phoneNumber} was bought. It is now one of your numbers and can be chosen as the From number when you dial.`);
          void load();
        }}
      />
    </div>
  );
}

import { useEffect, useState } from 'preact/hooks';
import { cleanedCsv, MAX_CONTACTS, MAX_CSV_BYTES, readyToSend, type ContactsPreview } from '../../lib/batches/contacts';
import { splitParts } from '../../lib/batches/upload';
import { t, uiLocale } from '../../lib/i18n';
import { send } from '../../lib/ui/send';
import { useStore } from '../../lib/ui/store';
import { CountrySelect } from '../shared/CountrySelect';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import { ContactsPreviewView } from './ContactsPreview';
import { draft, type Draft } from './state';

/** Checks the list with the number rules, loading them (libphonenumber-js) only when needed. */
async function check(text: string, country: string): Promise<ContactsPreview> {
  const { checkContacts } = await import('../../lib/batches/check');
  return checkContacts(text, country);
}

/** Sends the cleaned list in parts under the message cap, then creates the batch from them. */
async function upload(agentId: string, d: Draft, csv: string, progress: (text: string) => void): Promise<{ ok: true; batchId: string } | { ok: false; error: string }> {
  const uploadId = crypto.randomUUID();
  const parts = splitParts(csv);
  for (const [index, text] of parts.entries()) {
    if (parts.length > 1) progress(t('batches_sendingPart', (index + 1).toLocaleString(uiLocale()), parts.length.toLocaleString(uiLocale())));
    const reply = await send({ type: 'batches/upload-part', uploadId, index, total: parts.length, text });
    if (!reply.ok) return { ok: false, error: reply.error.message };
  }
  progress(t('batches_creating'));
  const reply = await send({ type: 'batches/create', agentId, uploadId, fileName: d.fileName, country: d.country });
  return reply.ok ? { ok: true, batchId: reply.data.batchId } : { ok: false, error: reply.error.message };
}

/** "2 MB" in the browser's locale. */
const sizeLimit = () => new Intl.NumberFormat(uiLocale(), { style: 'unit', unit: 'megabyte' }).format(MAX_CSV_BYTES / 1_000_000);
const maxContacts = () => MAX_CONTACTS.toLocaleString(uiLocale());

/** A new multi-call batch from a CSV file: checked row by row here, sent only when every row is good. */
export function NewBatch({ agentId, onCreated }: { agentId: string; onCreated(batchId: string): void }) {
  const store = useStore();
  const d = draft.value;
  const [preview, setPreview] = useState<ContactsPreview | null>(null);
  /** The text changed since it was checked. */
  const [stale, setStale] = useState(false);
  const [checking, setChecking] = useState(false);
  const [sending, setSending] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);

  const runCheck = async (next: Draft) => {
    setChecking(true);
    setStatus(t('batches_checking'));
    const result = await check(next.text, next.country);
    setChecking(false);
    setPreview(result);
    setStale(false);
    setStatus(result.fileProblem ? '' : readyToSend(result) ? t('batches_listReady') : t('batches_listHasProblems'));
  };

  // Back from an execution: the kept draft is checked again.
  useEffect(() => {
    if (d && !preview) void runCheck(d);
  }, []);

  const chooseFile = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    if (file.size > MAX_CSV_BYTES) {
      setError(t('batches_fileTooLarge', file.name, sizeLimit(), maxContacts()));
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (e) {
      setError(t('batches_fileUnreadable', file.name, e instanceof Error ? e.message : String(e)));
      return;
    }
    const next = { text, fileName: file.name, country: d?.country ?? store.settings.value.defaultCountry };
    draft.value = next;
    await runCheck(next);
  };

  const create = async () => {
    if (!d || !preview || stale || !readyToSend(preview)) return;
    setSending(true);
    setError(null);
    const result = await upload(agentId, d, cleanedCsv(preview), setStatus);
    setSending(false);
    if (!result.ok) {
      setStatus('');
      setError(t('batches_notCreated', result.error));
      return;
    }
    setStatus('');
    draft.value = null;
    setPreview(null);
    onCreated(result.batchId);
  };

  const ready = !!preview && !stale && readyToSend(preview);
  return (
    <section class="new-batch" aria-labelledby="new-batch-title">
      <h2 id="new-batch-title">{t('batches_newTitle')}</h2>
      <div class="field">
        <label for="batch-file">{t('batches_fileLabel')}</label>
        <input
          id="batch-file"
          type="file"
          accept=".csv,text/csv,.tsv,.txt"
          aria-describedby="batch-file-hint"
          onChange={(e) => {
            const input = e.currentTarget as HTMLInputElement;
            void chooseFile(input.files?.[0]);
            input.value = ''; // the same file, fixed, can be chosen again
          }}
        />
        <p class="hint" id="batch-file-hint">
          {t('batches_fileHint', maxContacts(), sizeLimit())}
        </p>
      </div>
      {d ? (
        <>
          <div class="field">
            <label for="batch-country">{t('batches_countryLabel')}</label>
            <CountrySelect
              id="batch-country"
              value={d.country}
              onChange={(country) => {
                const next = { ...d, country };
                draft.value = next;
                void runCheck(next);
              }}
            />
          </div>
          <div class="field">
            <label for="batch-text">{t('batches_textLabel', d.fileName)}</label>
            <textarea
              id="batch-text"
              class="batch-text"
              rows={8}
              spellcheck={false}
              value={d.text}
              onInput={(e) => {
                draft.value = { ...d, text: (e.currentTarget as HTMLTextAreaElement).value };
                setStale(true);
              }}
            />
          </div>
          <div class="actions">
            <button type="button" class="secondary" disabled={checking || sending} onClick={() => void runCheck(d)}>
              {t('batches_checkAgain')}
            </button>
            <button type="button" class="primary" disabled={!ready || sending || !agentId} aria-describedby="new-batch-why" onClick={() => void create()}>
              {t('batches_create')}
            </button>
            <button
              type="button"
              class="secondary"
              disabled={sending}
              onClick={() => {
                draft.value = null;
                setPreview(null);
                setStatus('');
                setError(null);
              }}
            >
              {t('batches_discard')}
            </button>
          </div>
          <p class="hint" id="new-batch-why">
            {!agentId
              ? t('batches_chooseAgentFirst')
              : stale
                ? t('batches_listChanged')
                : preview && !readyToSend(preview)
                  ? t('batches_everyRowGood')
                  : ''}
          </p>
          {preview && !stale ? <ErrorMessage>{preview.fileProblem}</ErrorMessage> : null}
          {preview ? <ContactsPreviewView preview={preview} /> : null}
        </>
      ) : null}
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
    </section>
  );
}

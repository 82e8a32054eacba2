import { useEffect, useState } from 'preact/hooks';
import { cleanedCsv, MAX_CONTACTS, MAX_CSV_BYTES, readyToSend, type ContactsPreview } from '../../lib/batches/contacts';
import { splitParts } from '../../lib/batches/upload';
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
    if (parts.length > 1) progress(`Sending the contact list: part ${index + 1} of ${parts.length}…`);
    const reply = await send({ type: 'batches/upload-part', uploadId, index, total: parts.length, text });
    if (!reply.ok) return { ok: false, error: reply.error.message };
  }
  progress('Creating the batch…');
  const reply = await send({ type: 'batches/create', agentId, uploadId, fileName: d.fileName, country: d.country });
  return reply.ok ? { ok: true, batchId: reply.data.batchId } : { ok: false, error: reply.error.message };
}

const SIZE_LIMIT = `${MAX_CSV_BYTES / 1_000_000} MB`;

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
    setStatus('Checking the contact list…');
    const result = await check(next.text, next.country);
    setChecking(false);
    setPreview(result);
    setStale(false);
    setStatus(result.fileProblem ? '' : readyToSend(result) ? 'The contact list is ready.' : 'The contact list has rows with problems.');
  };

  // Back from an execution: the kept draft is checked again.
  useEffect(() => {
    if (d && !preview) void runCheck(d);
  }, []);

  const chooseFile = async (file: File | undefined) => {
    setError(null);
    if (!file) return;
    if (file.size > MAX_CSV_BYTES) {
      setError(`“${file.name}” is over ${SIZE_LIMIT}; split it into smaller files (at most ${MAX_CONTACTS.toLocaleString(navigator.language)} contacts each).`);
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (e) {
      setError(`“${file.name}” could not be read (${e instanceof Error ? e.message : String(e)}). Choose it again.`);
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
      setError(`The batch was not created: ${result.error}`);
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
      <h2 id="new-batch-title">New batch</h2>
      <div class="field">
        <label for="batch-file">Contact list (CSV file)</label>
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
          {`The first line names the columns: contact_number, then any variables (first_name, …). One contact per line; commas, semicolons or tabs. At most ${MAX_CONTACTS.toLocaleString(navigator.language)} contacts and ${SIZE_LIMIT}.`}
        </p>
      </div>
      {d ? (
        <>
          <div class="field">
            <label for="batch-country">Country of numbers written without +</label>
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
            <label for="batch-text">{`Contents of ${d.fileName} (fix a line here, or choose the fixed file again)`}</label>
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
              Check again
            </button>
            <button type="button" class="primary" disabled={!ready || sending || !agentId} aria-describedby="new-batch-why" onClick={() => void create()}>
              Create batch
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
              Discard list
            </button>
          </div>
          <p class="hint" id="new-batch-why">
            {!agentId
              ? 'Choose an agent first.'
              : stale
                ? 'The list changed: press Check again before creating the batch.'
                : preview && !readyToSend(preview)
                  ? 'Every row must be good before the batch is created.'
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

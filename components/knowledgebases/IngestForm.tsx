import { useRef, useState } from 'preact/hooks';
import type { Knowledgebase } from '../../lib/api/schemas/knowledgebase';
import { t } from '../../lib/i18n';
import { MAX_PDF_BYTES, checkPdf, checkUrl, formatMegabytes } from '../../lib/knowledgebases/checks';
import { putUpload, removeUpload } from '../../lib/knowledgebases/uploads';
import { send } from '../../lib/ui/send';
import { ErrorMessage } from '../shared/Messages';
import { uiLocale } from '../../lib/locale';

type Source = 'pdf' | 'url';

/** Checks a chosen File by its name, size and first bytes; answers null when it may be uploaded. */
async function problemWith(file: File): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, 5).arrayBuffer());
  const checked = checkPdf({ name: file.name, size: file.size, head }, uiLocale());
  return checked.ok ? null : checked.message;
}

/**
 * Ingest a PDF or a web page, one or the other. Both are checked here before anything is sent. A PDF
 * is handed to the background through IndexedDB (a runtime message is capped at 64 KB): only its id travels.
 */
export function IngestForm({ onIngested }: { onIngested(knowledgebase: Knowledgebase): void }) {
  const [source, setSource] = useState<Source>('pdf');
  const [file, setFile] = useState<File | null>(null);
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [fileInputKey, setFileInputKey] = useState(0);
  // The file whose check may still be reading: an older check must not speak for a newer choice.
  const latestFile = useRef<File | null>(null);

  function choose(next: Source) {
    setSource(next);
    setProblem(null);
  }

  async function ingestFile(chosen: File): Promise<string | null> {
    const uploadId = crypto.randomUUID();
    try {
      await putUpload(uploadId, { name: chosen.name, blob: chosen });
    } catch (error) {
      return t('kb_notPrepared', error instanceof Error ? error.message : String(error));
    }
    const reply = await send({ type: 'knowledgebases/ingest-file', uploadId });
    if (reply.ok) {
      onIngested(reply.data);
      setFile(null);
      setFileInputKey((k) => k + 1);
      return null;
    }
    // The background takes the file out before uploading; this only clears one it never reached.
    await removeUpload(uploadId).catch(() => undefined);
    return t('kb_fileNotIngested', chosen.name, reply.error.message);
  }

  async function ingestUrl(text: string): Promise<string | null> {
    const checked = checkUrl(text);
    if (!checked.ok) return checked.message;
    const reply = await send({ type: 'knowledgebases/ingest-url', url: checked.url! });
    if (!reply.ok) return t('kb_pageNotIngested', reply.error.message);
    onIngested(reply.data);
    setUrl('');
    return null;
  }

  async function submit(event: Event) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    let message: string | null;
    if (source === 'pdf') {
      if (!file) message = t('kb_choosePdfFirst');
      else message = (await problemWith(file)) ?? (await ingestFile(file));
    } else message = await ingestUrl(url);
    setProblem(message);
    setBusy(false);
  }

  return (
    <section class="kb-ingest" aria-labelledby="kb-ingest-title">
      <h2 id="kb-ingest-title">{t('kb_addTitle')}</h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <fieldset class="kb-source">
          <legend>{t('kb_source')}</legend>
          <label>
            <input type="radio" id="kb-ingest-start" name="kb-source" value="pdf" checked={source === 'pdf'} onChange={() => choose('pdf')} /> {t('kb_sourcePdfChoice')}
          </label>
          <label>
            <input type="radio" name="kb-source" value="url" checked={source === 'url'} onChange={() => choose('url')} /> {t('kb_sourceUrlChoice')}
          </label>
        </fieldset>
        {/* Both stay mounted (hidden, not removed) so switching back keeps what was chosen or typed. */}
        <div class="field" hidden={source !== 'pdf'}>
          <label for="kb-file">{t('kb_pdfFile')}</label>
          <input
            key={fileInputKey}
            id="kb-file"
            type="file"
            accept=".pdf,application/pdf"
            aria-describedby="kb-file-hint"
            onChange={(e) => {
              const chosen = (e.currentTarget as HTMLInputElement).files?.[0] ?? null;
              setFile(chosen);
              setProblem(null);
              latestFile.current = chosen;
              if (chosen) void problemWith(chosen).then((found) => latestFile.current === chosen && setProblem(found));
            }}
          />
          <p class="hint" id="kb-file-hint">
            {t('kb_pdfHint', formatMegabytes(MAX_PDF_BYTES, uiLocale()))}
          </p>
        </div>
        <div class="field" hidden={source !== 'url'}>
          <label for="kb-url">{t('kb_urlLabel')}</label>
          <input
            id="kb-url"
            type="url"
            value={url}
            placeholder="https://example.com/faq"
            aria-describedby="kb-url-hint"
            onInput={(e) => setUrl((e.currentTarget as HTMLInputElement).value)}
          />
          <p class="hint" id="kb-url-hint">
            {t('kb_urlHint')}
          </p>
        </div>
        <ErrorMessage>{problem}</ErrorMessage>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? t('kb_ingesting') : t('kb_ingest')}
          </button>
        </div>
      </form>
    </section>
  );
}

import { useEffect } from 'preact/hooks';
import type { Knowledgebase } from '../../lib/api/schemas/knowledgebase';
import { t, uiLocale } from '../../lib/i18n';
import { statusLabel } from '../../lib/knowledgebases/status';
import { formatDateTime } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';

/** Its name as people know it: the file name, the page address, else the id. */
export const knowledgebaseName = (kb: Knowledgebase): string => kb.file_name || (typeof kb.url === 'string' ? kb.url : '') || kb.rag_id;

/** The service's message when ingestion failed (live records may name it differently). */
export function errorText(kb: Knowledgebase): string | null {
  for (const key of ['error_message', 'error', 'message', 'detail']) {
    const value = kb[key];
    if (typeof value === 'string' && value) return value;
  }
  return null;
}

const numberText = (value: number | null | undefined) => (typeof value === 'number' ? new Intl.NumberFormat(uiLocale()).format(value) : '—');

interface DetailsProps {
  knowledgebase: Knowledgebase;
  /** A fresh read of the service replaces the list's copy. */
  onRead(knowledgebase: Knowledgebase): void;
  onReadFailed(message: string): void;
  onClose(): void;
}

/** One knowledgebase as the service describes it, read again when opened. */
export function KnowledgebaseDetails({ knowledgebase: kb, onRead, onReadFailed, onClose }: DetailsProps) {
  useEffect(() => {
    let live = true;
    void send({ type: 'knowledgebases/get', ragId: kb.rag_id }).then((reply) => {
      if (!live) return;
      if (reply.ok) onRead(reply.data);
      else onReadFailed(t('kb_notRead', knowledgebaseName(kb), reply.error.message));
    });
    return () => {
      live = false;
    };
  }, [kb.rag_id]);

  const error = errorText(kb);
  return (
    <section class="kb-details" aria-labelledby="kb-details-title">
      <h3 id="kb-details-title">{knowledgebaseName(kb)}</h3>
      <dl class="details">
        <dt>{t('kb_status')}</dt>
        <dd>{statusLabel(kb.status)}</dd>
        {error ? (
          <>
            <dt>{t('kb_serviceMessage')}</dt>
            <dd>{error}</dd>
          </>
        ) : null}
        <dt>{t('kb_source')}</dt>
        <dd>{kb.source_type === 'url' ? t('kb_webPage') : kb.source_type === 'pdf' ? t('kb_pdfFile') : (kb.source_type ?? '—')}</dd>
        <dt>{t('kb_id')}</dt>
        <dd class="mono">{kb.rag_id}</dd>
        {kb.vector_id ? (
          <>
            <dt>{t('kb_vectorId')}</dt>
            <dd class="mono">{kb.vector_id}</dd>
          </>
        ) : null}
        <dt>{t('kb_chunkSize')}</dt>
        <dd>{numberText(kb.chunk_size)}</dd>
        <dt>{t('kb_topK')}</dt>
        <dd>{numberText(kb.similarity_top_k)}</dd>
        <dt>{t('kb_overlap')}</dt>
        <dd>{numberText(kb.overlapping)}</dd>
        <dt>{t('kb_created')}</dt>
        <dd>{kb.created_at ? formatDateTime(kb.created_at) : '—'}</dd>
        <dt>{t('kb_updated')}</dt>
        <dd>{kb.updated_at ? formatDateTime(kb.updated_at) : '—'}</dd>
      </dl>
      <div class="actions">
        <button type="button" class="secondary small" onClick={onClose}>
          {t('kb_closeDetails')}
        </button>
      </div>
    </section>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import type { Knowledgebase } from '../../lib/api/schemas/knowledgebase';
import { t } from '../../lib/i18n';
import { statusKind, statusLabel } from '../../lib/knowledgebases/status';
import { formatDateTime } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ConfirmBox } from '../shared/ConfirmBox';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { IngestForm } from './IngestForm';
import { KnowledgebaseDetails, errorText, knowledgebaseName } from './KnowledgebaseDetails';
import { useFollowProcessing } from './useFollowProcessing';
import { DataTable } from '../shared/DataTable';
import { EmptyState } from '../shared/EmptyState';

/** What to announce when a followed knowledgebase settles. */
function settledNotice(before: Knowledgebase | undefined, after: Knowledgebase): string | null {
  if (!before || statusKind(before.status) !== 'processing') return null;
  const kind = statusKind(after.status);
  if (kind === 'processed') return t('kb_processed', knowledgebaseName(after));
  if (kind === 'error') {
    const reason = errorText(after);
    return reason ? t('kb_notProcessedWhy', knowledgebaseName(after), reason) : t('kb_notProcessed', knowledgebaseName(after));
  }
  return null;
}

/** The side panel's Knowledgebases section: list, ingest a PDF or a page, follow it to processed, view, delete. */
export function KnowledgebasesSection(_props: SectionProps) {
  const [knowledgebases, setKnowledgebases] = useState<Knowledgebase[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const [doomed, setDoomed] = useState<Knowledgebase | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  async function load() {
    setLoading(true);
    const reply = await send({ type: 'knowledgebases/list' });
    setLoading(false);
    if (reply.ok) {
      setKnowledgebases(reply.data);
      setError(null);
    } else setError(t('kb_notLoaded', reply.error.message));
  }
  useEffect(() => {
    void load();
  }, []);

  // The list as last rendered, to compare a fresh read with (announcements stay out of state updaters).
  const shown = useRef(knowledgebases);
  shown.current = knowledgebases;
  const replace = (fresh: Knowledgebase) => {
    const announced = settledNotice(shown.current?.find((kb) => kb.rag_id === fresh.rag_id), fresh);
    if (announced) setNotice(announced);
    setKnowledgebases((list) => {
      if (!list) return [fresh];
      // A read answers the full record; an ingest answer only a few fields: keep what each had.
      return list.some((kb) => kb.rag_id === fresh.rag_id) ? list.map((kb) => (kb.rag_id === fresh.rag_id ? { ...kb, ...fresh } : kb)) : [fresh, ...list];
    });
  };

  useFollowProcessing(knowledgebases, replace, (_ragId, message) => setError(t('kb_statusNotRead', message)));

  async function remove(kb: Knowledgebase) {
    setDeleting(true);
    setDeleteError(null);
    const reply = await send({ type: 'knowledgebases/delete', ragId: kb.rag_id });
    setDeleting(false);
    if (!reply.ok) {
      setDeleteError(t('kb_notDeleted', knowledgebaseName(kb), reply.error.message));
      return;
    }
    setDoomed(null);
    if (openId === kb.rag_id) setOpenId(null);
    setKnowledgebases((list) => list?.filter((k) => k.rag_id !== kb.rag_id) ?? null);
    setNotice(t('kb_deleted', knowledgebaseName(kb)));
  }

  const opened = knowledgebases?.find((kb) => kb.rag_id === openId) ?? null;
  return (
    <div class="knowledgebases-section">
      <IngestForm
        onIngested={(kb) => {
          replace(kb);
          setNotice(t('kb_sent', knowledgebaseName(kb)));
        }}
      />
      <section aria-labelledby="kb-list-title">
        <h2 id="kb-list-title">{t('kb_listTitle')}</h2>
        <ErrorMessage>{error}</ErrorMessage>
        <StatusMessage>{notice}</StatusMessage>
        {knowledgebases === null ? (
          <p class="hint">{loading ? t('kb_loading') : ''}</p>
        ) : knowledgebases.length === 0 ? (
          <EmptyState text={t('kb_none')} action={t('kb_addOne')} focusId="kb-ingest-start" />
        ) : (
          <DataTable class="knowledgebases" caption={t('kb_caption')} columns={[t('kb_colName'), t('kb_status'), t('kb_created')]} actionColumn={t('kb_colAction')}>
            {knowledgebases.map((kb) => (
              <tr key={kb.rag_id}>
                <td class="kb-name">
                  <button type="button" class="link" aria-label={t('kb_showDetails', knowledgebaseName(kb))} onClick={() => setOpenId(kb.rag_id)}>
                    {knowledgebaseName(kb)}
                  </button>
                </td>
                <td class={`kb-status kb-status-${statusKind(kb.status)}`}>{statusLabel(kb.status)}</td>
                <td>{kb.created_at ? formatDateTime(kb.created_at) : '—'}</td>
                <td>
                  <button
                    type="button"
                    class="secondary small"
                    aria-label={t('kb_deleteNamed', knowledgebaseName(kb))}
                    disabled={deleting}
                    onClick={() => {
                      setDeleteError(null);
                      setDoomed(kb);
                    }}
                  >
                    {t('kb_delete')}
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
        <div class="actions">
          <button type="button" class="secondary small" disabled={loading} onClick={() => void load()}>
            {t('kb_refresh')}
          </button>
        </div>
        {doomed ? (
          <ConfirmBox
            title={t('kb_deleteConfirmTitle', knowledgebaseName(doomed))}
            confirmLabel={t('kb_deleteConfirmLabel', knowledgebaseName(doomed))}
            danger
            busy={deleting}
            error={deleteError}
            onConfirm={() => void remove(doomed)}
            onCancel={() => setDoomed(null)}
          >
            <p>{t('kb_deleteWarning', knowledgebaseName(doomed))}</p>
          </ConfirmBox>
        ) : null}
        {opened ? (
          <KnowledgebaseDetails knowledgebase={opened} onRead={replace} onReadFailed={setError} onClose={() => setOpenId(null)} />
        ) : null}
      </section>
    </div>
  );
}

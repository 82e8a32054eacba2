import { useEffect, useRef, useState } from 'preact/hooks';
import type { Knowledgebase } from '../../lib/api/schemas/knowledgebase';
import { statusKind, statusLabel } from '../../lib/knowledgebases/status';
import { formatDateTime } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ConfirmBox } from '../shared/ConfirmBox';
import { ErrorMessage, StatusMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { IngestForm } from './IngestForm';
import { KnowledgebaseDetails, errorText, knowledgebaseName } from './KnowledgebaseDetails';
import { useFollowProcessing } from './useFollowProcessing';

/** What to announce when a followed knowledgebase settles. */
function settledNotice(before: Knowledgebase | undefined, after: Knowledgebase): string | null {
  if (!before || statusKind(before.status) !== 'processing') return null;
  const kind = statusKind(after.status);
  if (kind === 'processed') return `“${knowledgebaseName(after)}” is processed and ready for agents.`;
  if (kind === 'error') {
    const reason = errorText(after);
    return reason ? `“${knowledgebaseName(after)}” could not be processed: ${reason}` : `“${knowledgebaseName(after)}” could not be processed.`;
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
    } else setError(`The knowledgebases could not be loaded: ${reply.error.message}`);
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

  useFollowProcessing(knowledgebases, replace, (_ragId, message) => setError(`A status could not be read: ${message}`));

  async function remove(kb: Knowledgebase) {
    setDeleting(true);
    setDeleteError(null);
    const reply = await send({ type: 'knowledgebases/delete', ragId: kb.rag_id });
    setDeleting(false);
    if (!reply.ok) {
      setDeleteError(`“${knowledgebaseName(kb)}” was not deleted: ${reply.error.message}`);
      return;
    }
    setDoomed(null);
    if (openId === kb.rag_id) setOpenId(null);
    setKnowledgebases((list) => list?.filter((k) => k.rag_id !== kb.rag_id) ?? null);
    setNotice(`“${knowledgebaseName(kb)}” was deleted.`);
  }

  const opened = knowledgebases?.find((kb) => kb.rag_id === openId) ?? null;
  return (
    <div class="knowledgebases-section">
      <IngestForm
        onIngested={(kb) => {
          replace(kb);
          setNotice(`“${knowledgebaseName(kb)}” was sent to the service and is being processed.`);
        }}
      />
      <section aria-labelledby="kb-list-title">
        <h2 id="kb-list-title">Your knowledgebases</h2>
        <ErrorMessage>{error}</ErrorMessage>
        <StatusMessage>{notice}</StatusMessage>
        {knowledgebases === null ? (
          <p class="hint">{loading ? 'Loading knowledgebases…' : ''}</p>
        ) : knowledgebases.length === 0 ? (
          <p class="hint">No knowledgebases yet.</p>
        ) : (
          <div class="table-scroll">
            <table class="knowledgebases">
              <caption class="visually-hidden">Knowledgebases of this account</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {knowledgebases.map((kb) => (
                  <tr key={kb.rag_id}>
                    <td class="kb-name">
                      <button type="button" class="link" aria-label={`Show details of ${knowledgebaseName(kb)}`} onClick={() => setOpenId(kb.rag_id)}>
                        {knowledgebaseName(kb)}
                      </button>
                    </td>
                    <td class={`kb-status kb-status-${statusKind(kb.status)}`}>{statusLabel(kb.status)}</td>
                    <td>{kb.created_at ? formatDateTime(kb.created_at) : '—'}</td>
                    <td>
                      <button
                        type="button"
                        class="secondary small"
                        aria-label={`Delete ${knowledgebaseName(kb)}`}
                        disabled={deleting}
                        onClick={() => {
                          setDeleteError(null);
                          setDoomed(kb);
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
            title={`Delete “${knowledgebaseName(doomed)}”?`}
            confirmLabel={`Delete “${knowledgebaseName(doomed)}”`}
            danger
            busy={deleting}
            error={deleteError}
            onConfirm={() => void remove(doomed)}
            onCancel={() => setDoomed(null)}
          >
            <p>The knowledgebase “{knowledgebaseName(doomed)}” and what the service learned from it are deleted. Agents that use it lose it. This cannot be undone.</p>
          </ConfirmBox>
        ) : null}
        {opened ? (
          <KnowledgebaseDetails knowledgebase={opened} onRead={replace} onReadFailed={setError} onClose={() => setOpenId(null)} />
        ) : null}
      </section>
    </div>
  );
}

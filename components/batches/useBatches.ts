/**
 * The chosen agent's batches from the background, looked at again while one of them is scheduled
 * or running (lib/batches/status.ts decides how often), never while the page is hidden or the
 * section is not on screen (unmounting clears the timer).
 */
import { useEffect, useState } from 'preact/hooks';
import type { Batch } from '../../lib/api/schemas/batch';
import { nextRefreshMs } from '../../lib/batches/status';
import type { BatchExecutionRow } from '../../lib/requests/batches';
import { send } from '../../lib/ui/send';

function useDocumentVisible(): boolean {
  const [visible, setVisible] = useState(() => typeof document === 'undefined' || document.visibilityState !== 'hidden');
  useEffect(() => {
    const update = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return visible;
}

export function useBatchList(agentId: string) {
  const [batches, setBatches] = useState<Batch[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  /** Bumped to load again (by the timer or after an action). */
  const [asked, setAsked] = useState(0);
  /** Bumped when an answer arrives, so views that follow the list load their own parts again. */
  const [version, setVersion] = useState(0);
  const visible = useDocumentVisible();

  useEffect(() => {
    if (!agentId) {
      setBatches(null);
      return;
    }
    let live = true;
    setLoading(true);
    void send({ type: 'batches/list', agentId }).then((reply) => {
      if (!live) return;
      setLoading(false);
      if (reply.ok) {
        setBatches(reply.data);
        setError(null);
      } else setError(`The batches could not be loaded: ${reply.error.message}`);
      setVersion((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [agentId, asked]);

  useEffect(() => {
    if (!visible || !batches) return;
    const delay = nextRefreshMs(batches, Date.now());
    if (delay === null) return;
    const timer = setTimeout(() => setAsked((n) => n + 1), delay);
    return () => clearTimeout(timer);
  }, [batches, visible, version]);

  return { batches, error, loading, version, reload: () => setAsked((n) => n + 1) };
}

/** One batch's executions, loaded again whenever `key` changes. */
export function useBatchExecutions(batchId: string, key: unknown) {
  const [executions, setExecutions] = useState<BatchExecutionRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void send({ type: 'batches/executions', batchId }).then((reply) => {
      if (!live) return;
      if (reply.ok) {
        setExecutions(reply.data);
        setError(null);
      } else setError(`The batch’s calls could not be loaded: ${reply.error.message}`);
    });
    return () => {
      live = false;
    };
  }, [batchId, key]);
  return { executions, error };
}

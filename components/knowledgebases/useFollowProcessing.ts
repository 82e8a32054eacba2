import { useEffect, useRef } from 'preact/hooks';
import type { Knowledgebase } from '../../lib/api/schemas/knowledgebase';
import { isSettled, nextPollDelay } from '../../lib/knowledgebases/status';
import { send } from '../../lib/ui/send';

/**
 * Reads each knowledgebase still in progress again, at growing intervals (lib/knowledgebases/status.ts),
 * until all are processed or in error. Stops when the section closes (unmount). Goes through the
 * background, like every read of the service.
 */
export function useFollowProcessing(
  knowledgebases: Knowledgebase[] | null,
  onRead: (knowledgebase: Knowledgebase) => void,
  onFailure: (ragId: string, message: string) => void,
) {
  const handlers = useRef({ onRead, onFailure });
  handlers.current = { onRead, onFailure };
  // The effect restarts (and its waits start short again) only when the set followed changes.
  const following = (knowledgebases ?? []).filter((kb) => !isSettled(kb.status)).map((kb) => kb.rag_id).join('\n');

  useEffect(() => {
    if (!following) return;
    const ragIds = following.split('\n');
    let live = true;
    let delay: number | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      delay = nextPollDelay(delay);
      timer = setTimeout(() => void poll(), delay);
    };
    const poll = async () => {
      const replies = await Promise.all(ragIds.map((ragId) => send({ type: 'knowledgebases/get', ragId })));
      if (!live) return;
      replies.forEach((reply, i) => {
        if (reply.ok) handlers.current.onRead(reply.data);
        else handlers.current.onFailure(ragIds[i]!, reply.error.message);
      });
      schedule();
    };
    schedule();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [following]);
}

import { useEffect, useState } from 'preact/hooks';
import type { RunPreview } from '../../lib/requests/plans';
import { formatCents, formatClock } from '../../lib/ui/format';
import { send } from '../../lib/ui/send';
import { ErrorMessage, StatusMessage } from '../shared/Messages';

interface RunConfirmProps {
  planId: string;
  planName: string;
  onStarted(runId: string): void;
  onCancel(): void;
}

const locale = () => (typeof navigator === 'undefined' ? undefined : navigator.language);

/** Running a plan places real calls: say how many, to which numbers, what they may cost and when they start, then ask. */
export function RunConfirm({ planId, planName, onStarted, onCancel }: RunConfirmProps) {
  const [preview, setPreview] = useState<RunPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  // Chosen once: a double click or a retry after a lost answer starts the same run.
  const [runId] = useState(() => crypto.randomUUID());

  useEffect(() => {
    void send({ type: 'plans/preview-run', planId }).then((reply) => {
      if (reply.ok) setPreview(reply.data);
      else setError(reply.error.message);
    });
  }, [planId]);

  const start = async () => {
    setStarting(true);
    const reply = await send({ type: 'plans/run', planId, runId });
    setStarting(false);
    if (reply.ok) onStarted(reply.data.runId);
    else setError(reply.error.message);
  };

  const seconds = preview ? Math.max(0, Math.round((preview.startsAt - Date.now()) / 1000)) : 0;
  return (
    <section class="plans-confirm" aria-label="Confirm the run">
      <h3>Run {planName}?</h3>
      {!preview && !error ? <StatusMessage>Preparing the confirmation…</StatusMessage> : null}
      {preview ? (
        <>
          <p>
            {preview.calls === 1 ? 'This places 1 real call' : `This places ${preview.calls} real calls`} through {preview.service}, as one batch, to:
          </p>
          <ul class="plans-numbers">
            {preview.numbers.map((n) => (
              <li key={n} class="mono">
                {n}
              </li>
            ))}
          </ul>
          <p>
            {preview.estimate
              ? `Estimated cost: ${formatCents(preview.estimate.cents, 'USD', locale())} (from the agent's ${preview.estimate.basedOn} recent completed calls).`
              : preview.estimateError
                ? `No cost estimate: the agent's recent calls could not be read (${preview.estimateError}).`
                : 'No cost estimate: the agent has no recent completed calls with a cost.'}
          </p>
          <p>
            The calls start at {formatClock(preview.startsAt, { seconds: true, locale: locale() })}, about {seconds} seconds after you confirm (the earliest the service
            accepts). On the live service a batch starts at the next 10-minute mark: {formatClock(preview.liveStartsAt, { locale: locale() })}.
          </p>
        </>
      ) : null}
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        <button type="button" class="primary" onClick={start} disabled={!preview || starting}>
          {preview ? `Place ${preview.calls} calls` : 'Place calls'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}

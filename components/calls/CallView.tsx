import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Execution } from '../../lib/api/schemas/execution';
import type { CallRecord, CallVia, DialStep } from '../../lib/calls/call-record';
import { t, type MessageKey } from '../../lib/i18n';
import { statusText } from '../../lib/calls/status-text';
import { expectedStarts } from '../../lib/placement/tracker';
import { formatClock, formatCountdown, formatDateTime, formatDuration } from '../../lib/ui/format';
import { useNow } from '../../lib/ui/hooks';
import { send } from '../../lib/ui/send';
import { CallOutcome } from './CallOutcome';
import { CallStatusTimeline } from './CallStatusTimeline';
import { Countdown } from '../shared/Countdown';
import { ExecutionResults } from './ExecutionResults';
import { ErrorMessage } from '../shared/Messages';
import { tNodes } from '../shared/Translated';

const STEP_PROGRESS: Record<DialStep, MessageKey | null> = {
  'starting-call': 'calls_progressStartingCall',
  'creating-batch': 'calls_progressCreatingBatch',
  scheduling: 'calls_progressScheduling',
  'finding-execution': 'calls_progressFindingExecution',
  tracking: null,
  finished: null,
};

/** "<Step> failed." and "<Step> failed: <error>", a whole sentence for each step. */
const STEP_FAILED: Record<DialStep, { alone: MessageKey; why: MessageKey }> = {
  'starting-call': { alone: 'calls_failedStartingCall', why: 'calls_failedStartingCallWhy' },
  'creating-batch': { alone: 'calls_failedCreatingBatch', why: 'calls_failedCreatingBatchWhy' },
  scheduling: { alone: 'calls_failedScheduling', why: 'calls_failedSchedulingWhy' },
  'finding-execution': { alone: 'calls_failedFindingExecution', why: 'calls_failedFindingExecutionWhy' },
  tracking: { alone: 'calls_failedTracking', why: 'calls_failedTrackingWhy' },
  finished: { alone: 'calls_failedFinished', why: 'calls_failedFinishedWhy' },
};

/** How the call went out, in a word (a started-now call rings at once; a batch waits for its start). */
const VIA_NAMES: Record<CallVia, MessageKey> = {
  call: 'calls_viaCall',
  batch: 'calls_viaBatch',
};

/** Statuses during which the call is still waiting for its start time. */
const WAITING = new Set(['prepared', 'scheduled', 'queued', 'rescheduled']);

export function callStatusText(call: CallRecord): string {
  if (call.failure) return t(STEP_FAILED[call.failure.step].alone);
  if (call.step === 'finished') return statusText(call.status);
  if (call.stopRequested && !call.stopRefused) return t('calls_stopping');
  if (call.trackingPaused) return t('calls_trackingPaused');
  const progress = STEP_PROGRESS[call.step];
  return progress ? t(progress) : statusText(call.status ?? 'scheduled');
}

/** Where the call is now, what went wrong, and the Retry / Stop call actions. */
export function CallProgress({ call }: { call: CallRecord }) {
  const [actionError, setActionError] = useState<string | null>(null);
  const [pending, setPending] = useState<'retry' | 'stop' | null>(null);
  const finished = call.step === 'finished';

  const act = async (type: 'call/retry' | 'call/stop') => {
    setPending(type === 'call/retry' ? 'retry' : 'stop');
    setActionError(null);
    const reply = await send({ type, callId: call.id });
    setPending(null);
    if (!reply.ok) setActionError(t(type === 'call/retry' ? 'calls_retryFailed' : 'calls_stopFailed', reply.error.message));
  };

  const waiting = !finished && !call.failure && (call.status === null || WAITING.has(call.status));
  const starts = waiting ? expectedStarts(call) : [];
  // Stop works at every step: before scheduling it ends the call before anything can ring.
  const canStop = !finished;

  return (
    <div class="call-progress">
      <p class="call-status" aria-live="polite">
        {callStatusText(call)}
      </p>
      {call.failure ? (
        <div class="message message-error" role="alert">
          <p>{t(STEP_FAILED[call.failure.step].why, call.failure.message)}</p>
          <button type="button" class="secondary" onClick={() => act('call/retry')} disabled={pending !== null}>
            {t('calls_retry')}
          </button>
        </div>
      ) : call.trackingPaused ? (
        <div class="message message-error" role="alert">
          {/* Paused without failed polls: not the network (e.g. no key for the call's service): say only why. */}
          <p>
            {[
              call.failingSince ? t('calls_trackingPausedSince', formatClock(call.failingSince)) : t('calls_trackingPaused'),
              call.lastError ? (call.failingSince ? t('calls_lastError', call.lastError) : call.lastError) : null,
            ]
              .filter(Boolean)
              .join(' ')}
          </p>
          <button type="button" class="secondary" onClick={() => act('call/retry')} disabled={pending !== null}>
            {t('calls_retry')}
          </button>
        </div>
      ) : call.serviceWait && !finished ? (
        <ServiceWait wait={call.serviceWait} reason={call.lastError} />
      ) : call.lastError && !finished ? (
        <p class="hint">{t('calls_troubleReaching', call.lastError)}</p>
      ) : null}
      {call.stopRefused ? <p class="hint stop-refused">{t('calls_stopRefused', call.stopRefused)}</p> : null}
      {starts.length ? <Countdown starts={starts} /> : null}
      {canStop ? (
        <button type="button" class="danger" onClick={() => act('call/stop')} disabled={pending !== null || call.stopRequested}>
          {t('calls_stopCall')}
        </button>
      ) : null}
      <ErrorMessage>{actionError}</ErrorMessage>
    </div>
  );
}

/** Beyond this, a wait the service asks for is not counted down: the call says what was asked and when it tries again. */
const SHORT_WAIT_MS = 60_000;

/** The service asked us to wait (`Retry-After`): how long, and when the call tries again. */
function ServiceWait({ wait, reason }: { wait: { askedMs: number; until: number }; reason: string | null }) {
  const now = useNow(1000);
  const asked = formatDuration(wait.askedMs / 1000);
  const text =
    wait.askedMs <= SHORT_WAIT_MS
      ? reason
        ? t('calls_waitCountdownWhy', asked, reason, formatCountdown(wait.until - now))
        : t('calls_waitCountdown', asked, formatCountdown(wait.until - now))
      : reason
        ? t('calls_waitUntilWhy', asked, reason, formatClock(wait.until))
        : t('calls_waitUntil', asked, formatClock(wait.until));
  return (
    <p class="hint service-wait" role="status">
      {text}
    </p>
  );
}

function CallHeading({ call, level }: { call: CallRecord; level: 2 | 3 }) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <H class="call-title">
      {tNodes('calls_callTo', <span class="mono">{call.toNumber}</span>)}
    </H>
  );
}

function CallFacts({ call }: { call: CallRecord }) {
  const names = Object.keys(call.variables);
  return (
    <dl class="details">
      <div class="details-row">
        <dt>{t('calls_agent')}</dt>
        <dd>{call.agentName || call.agentId}</dd>
      </div>
      <div class="details-row">
        <dt>{t('calls_from')}</dt>
        <dd>{call.fromNumber ?? t('calls_anyNumber')}</dd>
      </div>
      <div class="details-row">
        <dt>{t('calls_placedAs')}</dt>
        <dd>{t(VIA_NAMES[call.via])}</dd>
      </div>
      <div class="details-row">
        <dt>{t('calls_placed')}</dt>
        <dd>{formatDateTime(call.createdAt)}</dd>
      </div>
      {names.length ? (
        <div class="details-row">
          <dt>{t('calls_variables')}</dt>
          <dd>{names.map((n) => t('calls_variableValue', n, call.variables[n] ?? '')).join(', ')}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The popup's view of one call: progress, timeline, the outcome, and a way to the details. */
export function CompactCallView({ call, onOpenDetails, children }: { call: CallRecord; onOpenDetails?: () => void; children?: ComponentChildren }) {
  const finished = call.step === 'finished';
  return (
    <section class="call call-compact" aria-label={t('calls_currentCall')}>
      <CallHeading call={call} level={2} />
      <p class="hint">{t('calls_withAgent', call.agentName || call.agentId)}</p>
      <p class="hint call-via">{t(VIA_NAMES[call.via])}</p>
      <CallProgress call={call} />
      <CallStatusTimeline call={call} />
      {finished && call.execution ? <CallOutcome execution={call.execution} /> : null}
      <div class="actions">
        {onOpenDetails ? (
          <button type="button" class="secondary" onClick={onOpenDetails}>
            {t('calls_openDetails')}
          </button>
        ) : null}
        {children}
      </div>
    </section>
  );
}

/** Fetches an execution again on request (fresh recording link); the newest answer wins. */
export function useReloadedExecution(executionId: string | null, stored: Execution | null) {
  const [fresh, setFresh] = useState<{ forId: string; execution: Execution } | null>(null);
  const [reloading, setReloading] = useState(false);
  const [reloadError, setReloadError] = useState<{ forId: string; message: string } | null>(null);
  const reload = async () => {
    if (!executionId) return;
    setReloading(true);
    setReloadError(null);
    const reply = await send({ type: 'execution/get', executionId });
    setReloading(false);
    if (reply.ok) setFresh({ forId: executionId, execution: reply.data });
    else setReloadError({ forId: executionId, message: t('calls_notReloaded', reply.error.message) });
  };
  return {
    execution: fresh && fresh.forId === executionId ? fresh.execution : stored,
    reload,
    reloading,
    reloadError: reloadError && reloadError.forId === executionId ? reloadError.message : null,
  };
}

/** The side panel's view of one call: everything, including the results once it is over. */
export function FullCallView({ call }: { call: CallRecord }) {
  const { execution, reload, reloading, reloadError } = useReloadedExecution(call.executionId, call.execution);
  const finished = call.step === 'finished';
  return (
    <section class="call call-full" aria-label={t('calls_callDetails')}>
      <CallHeading call={call} level={2} />
      <CallFacts call={call} />
      <CallProgress call={call} />
      <CallStatusTimeline call={call} />
      {finished ? (
        execution ? (
          <ExecutionResults execution={execution} onReload={reload} reloading={reloading} reloadError={reloadError} />
        ) : (
          <p class="hint">{t('calls_resultsNotArrived')}</p>
        )
      ) : null}
    </section>
  );
}

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Execution } from '../../lib/api/schemas/execution';
import type { CallRecord, CallVia, DialStep } from '../../lib/calls/call-record';
import { statusLabel } from '../../lib/calls/status';
import { expectedStarts } from '../../lib/calls/tracker';
import { formatClock, formatCountdown, formatDateTime, formatDuration } from '../../lib/ui/format';
import { useNow } from '../../lib/ui/hooks';
import { send } from '../../lib/ui/send';
import { CallOutcome } from './CallOutcome';
import { CallStatusTimeline } from './CallStatusTimeline';
import { Countdown } from '../shared/Countdown';
import { ExecutionResults } from './ExecutionResults';
import { ErrorMessage } from '../shared/Messages';

const STEP_PROGRESS: Record<DialStep, string> = {
  'starting-call': 'Starting the call…',
  'creating-batch': 'Creating batch…',
  scheduling: 'Scheduling…',
  'finding-execution': 'Finding the call…',
  tracking: '',
  finished: '',
};

const STEP_NAMES: Record<DialStep, string> = {
  'starting-call': 'Starting the call',
  'creating-batch': 'Creating the batch',
  scheduling: 'Scheduling the batch',
  'finding-execution': 'Finding the call',
  tracking: 'Following the call',
  finished: 'Finishing',
};

/** How the call went out, in a word (a started-now call rings at once; a batch waits for its start). */
const VIA_NAMES: Record<CallVia, string> = {
  call: 'Started now',
  batch: 'Single-call batch',
};

/** Statuses during which the call is still waiting for its start time. */
const WAITING = new Set(['prepared', 'scheduled', 'queued', 'rescheduled']);

export function callStatusText(call: CallRecord): string {
  if (call.failure) return `${STEP_NAMES[call.failure.step]} failed.`;
  if (call.step === 'finished') return statusLabel(call.status);
  if (call.stopRequested && !call.stopRefused) return 'Stopping…';
  if (call.trackingPaused) return 'Tracking paused.';
  return STEP_PROGRESS[call.step] || statusLabel(call.status ?? 'scheduled');
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
    if (!reply.ok) setActionError(`${type === 'call/retry' ? 'Retry' : 'Stop'} did not work: ${reply.error.message}`);
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
          <p>
            {STEP_NAMES[call.failure.step]} failed: {call.failure.message}
          </p>
          <button type="button" class="secondary" onClick={() => act('call/retry')} disabled={pending !== null}>
            Retry
          </button>
        </div>
      ) : call.trackingPaused ? (
        <div class="message message-error" role="alert">
          {/* Paused without failed polls: not the network (e.g. no key for the call's service): say only why. */}
          <p>
            {call.failingSince
              ? `Tracking paused: the service could not be reached since ${formatClock(call.failingSince)}.${call.lastError ? ` Last error: ${call.lastError}` : ''}`
              : `Tracking paused.${call.lastError ? ` ${call.lastError}` : ''}`}
          </p>
          <button type="button" class="secondary" onClick={() => act('call/retry')} disabled={pending !== null}>
            Retry
          </button>
        </div>
      ) : call.serviceWait && !finished ? (
        <ServiceWait wait={call.serviceWait} reason={call.lastError} />
      ) : call.lastError && !finished ? (
        <p class="hint">Having trouble reaching the service ({call.lastError}); still trying.</p>
      ) : null}
      {call.stopRefused ? <p class="hint stop-refused">The service did not stop the call: {call.stopRefused}</p> : null}
      {starts.length ? <Countdown starts={starts} /> : null}
      {canStop ? (
        <button type="button" class="danger" onClick={() => act('call/stop')} disabled={pending !== null || call.stopRequested}>
          Stop call
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
  const why = reason ? ` (${reason})` : '';
  return (
    <p class="hint service-wait" role="status">
      {wait.askedMs <= SHORT_WAIT_MS
        ? `The service asked us to wait ${asked}${why}; trying again in ${formatCountdown(wait.until - now)}.`
        : `The service asked us to wait ${asked}${why}; the call tries again at ${formatClock(wait.until)}.`}
    </p>
  );
}

function CallHeading({ call, level }: { call: CallRecord; level: 2 | 3 }) {
  const H = level === 2 ? 'h2' : 'h3';
  return (
    <H class="call-title">
      Call to <span class="mono">{call.toNumber}</span>
    </H>
  );
}

function CallFacts({ call }: { call: CallRecord }) {
  const names = Object.keys(call.variables);
  return (
    <dl class="details">
      <div class="details-row">
        <dt>Agent</dt>
        <dd>{call.agentName || call.agentId}</dd>
      </div>
      <div class="details-row">
        <dt>From</dt>
        <dd>{call.fromNumber ?? 'Any number (service default)'}</dd>
      </div>
      <div class="details-row">
        <dt>Placed as</dt>
        <dd>{VIA_NAMES[call.via]}</dd>
      </div>
      <div class="details-row">
        <dt>Placed</dt>
        <dd>{formatDateTime(call.createdAt)}</dd>
      </div>
      {names.length ? (
        <div class="details-row">
          <dt>Variables</dt>
          <dd>{names.map((n) => `${n} = ${call.variables[n]}`).join(', ')}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The popup's view of one call: progress, timeline, the outcome, and a way to the details. */
export function CompactCallView({ call, onOpenDetails, children }: { call: CallRecord; onOpenDetails?: () => void; children?: ComponentChildren }) {
  const finished = call.step === 'finished';
  return (
    <section class="call call-compact" aria-label="Current call">
      <CallHeading call={call} level={2} />
      <p class="hint">with {call.agentName || call.agentId}</p>
      <p class="hint call-via">{VIA_NAMES[call.via]}</p>
      <CallProgress call={call} />
      <CallStatusTimeline call={call} />
      {finished && call.execution ? <CallOutcome execution={call.execution} /> : null}
      <div class="actions">
        {onOpenDetails ? (
          <button type="button" class="secondary" onClick={onOpenDetails}>
            Open details
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
    else setReloadError({ forId: executionId, message: `The call could not be reloaded: ${reply.error.message}` });
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
    <section class="call call-full" aria-label="Call details">
      <CallHeading call={call} level={2} />
      <CallFacts call={call} />
      <CallProgress call={call} />
      <CallStatusTimeline call={call} />
      {finished ? (
        execution ? (
          <ExecutionResults execution={execution} onReload={reload} reloading={reloading} reloadError={reloadError} />
        ) : (
          <p class="hint">The call is over but its results have not arrived.</p>
        )
      ) : null}
    </section>
  );
}

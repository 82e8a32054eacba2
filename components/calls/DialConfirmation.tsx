import { useEffect, useRef } from 'preact/hooks';
import { earliestScheduledAt, liveStartTime } from '../../lib/api/schedule';
import { countryName } from '../../lib/ui/countries';
import { formatClock, formatFromNow } from '../../lib/ui/format';
import { useArmedAfterShown, useNow } from '../../lib/ui/hooks';
import type { ParsedPhone } from '../../lib/ui/phone';
import { LowBalanceWarning } from '../account/LowBalanceWarning';
import { ErrorMessage } from '../shared/Messages';
import { StartNowEstimate } from './StartNowEstimate';

/** Who asked for a confirmation opened from outside the popup (from the browser, via the background). */
export interface RequestOrigin {
  /** Host of the page or frame that asked ('' when the browser did not say). */
  site: string;
  /** Host of the tab's page when a frame on another host asked. */
  topSite: string | null;
  source: 'overlay' | 'tel-link' | 'context-menu' | 'shortcut' | null;
}

/** How long a guarded confirmation's Confirm stays disabled after the window shows. */
export const CONFIRM_ARM_MS = 1000;

const SOURCE_LABELS: Record<NonNullable<RequestOrigin['source']>, string> = {
  overlay: 'its call button',
  'tel-link': 'a phone link',
  'context-menu': 'the context menu on a selection',
  shortcut: 'the keyboard shortcut on a selection',
};

interface DialConfirmationProps {
  agentName: string;
  number: ParsedPhone;
  fromNumber: string | null;
  variables: Record<string, string>;
  /** A call to this number is in progress: say so, and confirm with "Call again". */
  activeCall?: boolean;
  busy: boolean;
  error?: string | null;
  /**
   * Opened for a request from outside the popup (a page, the context menu, the shortcut): focus starts
   * on the dialog, not on Confirm, and Confirm is armed only after the window has been shown a moment.
   */
  guarded?: boolean;
  requestedBy?: RequestOrigin | null;
  /** "Start calls now" is on: the call starts at once where the service offers it. */
  startNow?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** When a call placed now will really start: the earliest the service accepts, and the 10-minute mark the hosted service waits for. */
export function StartEstimate({ now }: { now: number }) {
  const earliest = earliestScheduledAt(new Date(now)).getTime();
  const live = liveStartTime(new Date(earliest)).getTime();
  return (
    <div class="start-estimate">
      <p>
        Earliest start: <strong>{formatClock(earliest)}</strong> ({formatFromNow(earliest, now)}). Calls go out through a batch scheduled at
        least 2 minutes ahead.
      </p>
      <p>
        The hosted service starts batches at the next 10-minute mark: about <strong>{formatClock(live)}</strong> ({formatFromNow(live, now)}).
      </p>
    </div>
  );
}

/** The last look before a real phone rings: who calls whom, from which number, with what, and when. */
export function DialConfirmation({ agentName, number, fromNumber, variables, activeCall = false, busy, error, guarded = false, requestedBy, startNow = false, onConfirm, onCancel }: DialConfirmationProps) {
  const now = useNow(1000);
  const armed = useArmedAfterShown(CONFIRM_ARM_MS, guarded);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLElement>(null);
  // A guarded dialog takes focus itself: Enter there presses nothing.
  useEffect(() => (guarded ? dialogRef.current : confirmRef.current)?.focus(), []);
  const names = Object.keys(variables);
  return (
    <section
      class="dial-confirmation"
      role="dialog"
      ref={dialogRef}
      tabIndex={-1}
      aria-labelledby="dial-confirmation-title"
      aria-describedby="dial-confirmation-summary"
    >
      <h2 id="dial-confirmation-title">Place this call?</h2>
      {requestedBy ? (
        <p class="asked-by">
          Asked by <strong>{requestedBy.site || 'a page the browser did not name'}</strong>
          {requestedBy.topSite ? <> (a frame on <strong>{requestedBy.topSite}</strong>)</> : null}
          {requestedBy.source ? ` through ${SOURCE_LABELS[requestedBy.source]}` : ''}.
        </p>
      ) : null}
      <dl id="dial-confirmation-summary" class="details">
        <dt>Agent</dt>
        <dd>{agentName}</dd>
        <dt>To</dt>
        <dd>
          {number.international}
          {number.country ? ` · ${countryName(number.country)}` : ''}
          <br />
          <span class="mono">{number.e164}</span>
        </dd>
        <dt>From</dt>
        <dd>{fromNumber ?? 'Any number (service default)'}</dd>
        <dt>Variables</dt>
        <dd>
          {names.length === 0 ? (
            'None'
          ) : (
            <ul class="plain">
              {names.map((name) => (
                <li key={name}>
                  <span class="mono">{name}</span> = {variables[name]}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      {startNow ? <StartNowEstimate now={now} /> : <StartEstimate now={now} />}
      <LowBalanceWarning />
      {activeCall ? (
        <p class="message message-warning" role="alert">
          A call to {number.international} is in progress — call again?
        </p>
      ) : null}
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        <button type="button" class="primary" ref={confirmRef} onClick={onConfirm} disabled={busy || !armed}>
          {activeCall ? 'Call again' : 'Confirm'}
        </button>
        <button type="button" class="secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
      {busy ? <p class="hint" role="status">Placing the call…</p> : null}
    </section>
  );
}

import { useEffect, useRef } from 'preact/hooks';
import { t, type MessageKey } from '../../lib/i18n';
import { earliestScheduledAt, liveStartTime } from '../../lib/api/schedule';
import { countryName } from '../../lib/country-names';
import { formatClock, formatFromNow } from '../../lib/ui/format';
import { useArmedAfterShown, useNow } from '../../lib/ui/hooks';
import type { ParsedPhone } from '../../lib/ui/phone';
import { LowBalanceWarning } from '../account/LowBalanceWarning';
import { ErrorMessage } from '../shared/Messages';
import { tNodes } from '../shared/Translated';
import { StartNowEstimate } from './StartNowEstimate';

/** Who asked for a confirmation opened from outside the popup (from the browser, via the background). */
export interface RequestOrigin {
  /** Host of the page or frame that asked ('' when the browser did not say). */
  site: string;
  /** Host of the tab's page when a frame on another host (or with no site of its own) asked. */
  topSite: string | null;
  /** A frame with no site of its own (an opaque origin: data:, sandboxed) asked: "a frame inside <topSite>". */
  opaqueFrame: boolean;
  source: 'overlay' | 'tel-link' | 'context-menu' | 'shortcut' | null;
  /** The number as the page wrote it ("٠٥٠ ١٢٣ ٤٥٦٧"), when it differs from how it is dialled. Page text: rendered as text. */
  written?: string;
}

/** How long a guarded confirmation's Confirm stays disabled after the window shows. */
export const CONFIRM_ARM_MS = 1000;

/** "Asked by … through …", a whole sentence for each way a request can come. */
const ASKED_BY: Record<NonNullable<RequestOrigin['source']>, MessageKey> = {
  overlay: 'calls_askedByOverlay',
  'tel-link': 'calls_askedByTelLink',
  'context-menu': 'calls_askedByContextMenu',
  shortcut: 'calls_askedByShortcut',
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
      <p>{tNodes('calls_earliestStart', <strong>{formatClock(earliest)}</strong>, formatFromNow(earliest, now))}</p>
      <p>{tNodes('calls_hostedStart', <strong>{formatClock(live)}</strong>, formatFromNow(live, now))}</p>
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
      <h2 id="dial-confirmation-title">{t('calls_confirmTitle')}</h2>
      {requestedBy ? (
        <p class="asked-by">
          {tNodes(
            requestedBy.source ? ASKED_BY[requestedBy.source] : 'calls_askedBy',
            requestedBy.opaqueFrame
              ? requestedBy.topSite
                ? tNodes('calls_askedByOpaqueFrame', <strong>{requestedBy.topSite}</strong>)
                : <strong>{t('calls_askedByUnnamedSite')}</strong>
              : requestedBy.topSite
                ? tNodes('calls_askedByFrame', <strong>{requestedBy.site || t('calls_askedByUnnamedSite')}</strong>, <strong>{requestedBy.topSite}</strong>)
                : <strong>{requestedBy.site || t('calls_askedByUnnamedSite')}</strong>,
          )}
        </p>
      ) : null}
      <dl id="dial-confirmation-summary" class="details">
        <dt>{t('calls_agent')}</dt>
        <dd>{agentName}</dd>
        <dt>{t('calls_to')}</dt>
        <dd>
          {number.country ? t('calls_numberWithCountry', number.international, countryName(number.country)) : number.international}
          <br />
          {requestedBy?.written ? (
            <>
              <span class="as-written">
                {t('calls_asWritten')} <bdi>{requestedBy.written}</bdi>
              </span>
              <br />
            </>
          ) : null}
          <span class="mono">{number.e164}</span>
        </dd>
        <dt>{t('calls_from')}</dt>
        <dd>{fromNumber ?? t('calls_anyNumber')}</dd>
        <dt>{t('calls_variables')}</dt>
        <dd>
          {names.length === 0 ? (
            t('calls_noVariables')
          ) : (
            <ul class="plain">
              {names.map((name) => (
                <li key={name}>
                  {tNodes('calls_variableValue', <span class="mono">{name}</span>, variables[name])}
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
          {t('calls_activeCallWarning', number.international)}
        </p>
      ) : null}
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        <button type="button" class="primary" ref={confirmRef} onClick={onConfirm} disabled={busy || !armed}>
          {activeCall ? t('calls_callAgain') : t('calls_confirm')}
        </button>
        <button type="button" class="secondary" onClick={onCancel} disabled={busy}>
          {t('calls_cancel')}
        </button>
      </div>
      {busy ? <p class="hint" role="status">{t('calls_placing')}</p> : null}
    </section>
  );
}

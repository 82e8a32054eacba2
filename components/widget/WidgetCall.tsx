import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { AttributeProblem, WidgetConfig } from '../../lib/widget/attributes';
import { e164Of } from '../../lib/widget/attributes';
import type { WidgetSession } from '../../lib/widget/session';
import { CallStatusTimeline } from '../calls/CallStatusTimeline';
import { ExtractedData } from '../calls/ExtractedData';
import { RecordingPlayer } from '../calls/RecordingPlayer';
import { Transcript } from '../calls/Transcript';
import { ErrorMessage } from '../shared/Messages';

/** Why the element cannot work, in words: nothing is sent while one of these stands. */
export function problemText(problem: AttributeProblem | { code: 'no-token' | 'no-proxy-transport'; detail?: string }): string {
  switch (problem.code) {
    case 'key-attribute':
      return t('widget_keyRefused', problem.detail ?? '');
    case 'bad-variables':
      return t('widget_badVariables', problem.detail ?? '');
    case 'bad-agent':
      return t('widget_badAgent', problem.detail ?? '');
    case 'bad-via':
      return t('widget_badVia', problem.detail ?? '');
    case 'bad-transport':
      return t('widget_badTransport', problem.detail ?? '');
    case 'no-token':
      return t('widget_noToken');
    case 'no-proxy-transport':
      return t('widget_noProxyTransport');
  }
}

export interface WidgetCallProps {
  config: WidgetConfig | null;
  /** Set when the attributes cannot be used (a key, bad JSON…): shown instead of the form. */
  problem: string | null;
  session: WidgetSession | null;
  /** Through the extension: whether its content script has answered in this frame yet. */
  waitingForExtension: boolean;
  onCall(toNumber: string): void;
}

/** The element's view: agent, number, Call, the status walk with times, Stop, then the results. */
export function WidgetCall({ config, problem, session, waitingForExtension, onCall }: WidgetCallProps) {
  const [typed, setTyped] = useState<string | null>(null);
  const [numberError, setNumberError] = useState<string | null>(null);
  if (problem || !config || !session) {
    return (
      <section class="card" aria-labelledby="vac-title">
        <h2 id="vac-title">{t('widget_title')}</h2>
        <ErrorMessage>{problem ?? ''}</ErrorMessage>
      </section>
    );
  }
  const view = session.view.value;
  const phase = session.phase.value;
  const busy = phase === 'placing' || phase === 'following';
  // Locked by default: the page's number, shown as text; typed only where the host opted in.
  const number = config.freeDial ? (typed ?? config.number) : config.number;

  const submit = (event: Event) => {
    event.preventDefault();
    // The field as it is now (a render may still be pending after the last keystroke).
    const field = (event.currentTarget as HTMLFormElement).querySelector('input');
    const asked = config.freeDial && field ? field.value : number;
    if (!asked.trim()) return setNumberError(t('widget_noNumber'));
    const e164 = e164Of(asked);
    if (!e164) return setNumberError(t('widget_badNumber', asked));
    setNumberError(null);
    onCall(e164);
  };

  return (
    <section class="card" aria-labelledby="vac-title">
      <h2 id="vac-title">{t('widget_title')}</h2>
      <p class="agent">{t('widget_agent', config.agentName || config.agentId)}</p>
      <form onSubmit={submit}>
        {config.freeDial ? (
          <>
            <label for="vac-number">{t('widget_number')}</label>
            <input id="vac-number" type="tel" autocomplete="off" value={number} disabled={busy} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} />
          </>
        ) : (
          <p class="number">{t('widget_numberLocked', config.number || '—')}</p>
        )}
        {numberError ? <ErrorMessage>{numberError}</ErrorMessage> : null}
        {!busy ? <button type="submit">{phase === 'done' ? t('widget_callAgain') : t('widget_call')}</button> : null}
      </form>
      {busy && waitingForExtension ? <p class="hint">{t('widget_waitingExtension')}</p> : null}
      <p role="status" class="hint">
        {phase === 'placing' ? t('widget_placing') : phase === 'done' ? t('widget_done') : ''}
        {view?.message && !view.done ? view.message : ''}
      </p>
      {session.error.value || (view?.done && view.message) ? <ErrorMessage>{session.error.value ?? view?.message ?? ''}</ErrorMessage> : null}
      {view ? (
        <>
          <CallStatusTimeline call={{ observed: view.observed, status: view.status, via: view.via }} />
          {phase === 'following' ? (
            <button type="button" class="secondary" disabled={session.stopping.value || view.stopRequested} onClick={() => void session.stop()}>
              {t('widget_stop')}
            </button>
          ) : null}
          {view.done ? (
            <>
              {view.durationSeconds !== null ? <p>{t('widget_duration', String(Math.round(view.durationSeconds)))}</p> : null}
              {view.cost !== null ? <p>{t('widget_cost', String(view.cost))}</p> : null}
              {config.showTranscripts && view.transcript !== null ? <Transcript text={view.transcript} scrolls /> : null}
              {config.showTranscripts && view.recordingUrl !== null ? <RecordingPlayer url={view.recordingUrl} /> : null}
              {view.extractedData !== null ? <ExtractedData data={view.extractedData} /> : null}
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { WidgetPendingView } from '../../lib/requests/widget';
import { useArmedAfterShown } from '../../lib/ui/hooks';
import { send } from '../../lib/ui/send';
import { ErrorMessage } from '../shared/Messages';
import { CONFIRM_ARM_MS } from './DialConfirmation';

/**
 * The extension's own confirmation of a `<voice-agent-call>` element's request: which site asked
 * (from the browser, never page text), the agent and the number it asks for, how the call goes out,
 * and whether this page may see the transcript and recording (off unless ticked). Confirm is armed
 * only after the window has been shown a moment, like every confirmation a page can open.
 */
export function WidgetConfirmation({ ticket, onPlaced }: { ticket: string; onPlaced(callId: string): void }) {
  const [pending, setPending] = useState<WidgetPendingView | null | undefined>(undefined);
  const [share, setShare] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const armed = useArmedAfterShown(CONFIRM_ARM_MS, true);
  const dialogRef = useRef<HTMLElement>(null);

  useEffect(() => {
    void send({ type: 'widget/pending', ticket }).then((reply) => setPending(reply.ok ? reply.data : null));
  }, [ticket]);
  useEffect(() => dialogRef.current?.focus(), [pending]);

  if (pending === undefined) return <p class="hint">{t('popup_loading')}</p>;
  if (pending === null) return <p class="hint" role="status">{t('widgetConfirm_gone')}</p>;

  const asker = pending.asker;
  const site = 'inside' in asker ? asker.inside : asker.site;
  const askedBy =
    'inside' in asker || (asker.topSite && asker.topSite !== asker.site)
      ? t('widgetConfirm_siteInFrame', site || '?', 'inside' in asker ? asker.inside : asker.topSite)
      : t('widgetConfirm_site', site || '?');
  const variables = Object.entries(pending.variables);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    const reply = await send({ type: 'widget/confirm', ticket, share });
    setBusy(false);
    if (reply.ok) onPlaced(reply.data.callId);
    else setError(reply.error.message);
  };
  const cancel = async () => {
    await send({ type: 'widget/decline', ticket });
    window.close();
  };

  return (
    <section class="confirmation" role="dialog" ref={dialogRef} tabIndex={-1} aria-labelledby="widget-confirmation-title">
      <h2 id="widget-confirmation-title">{t('widgetConfirm_title')}</h2>
      <p class="asked-by">{askedBy}</p>
      <p>{pending.agentName ? t('widgetConfirm_agent', pending.agentName) : t('widgetConfirm_agentUnknown', pending.agentId)}</p>
      <p>{t('widgetConfirm_number', pending.toNumber)}</p>
      <p class="hint">{pending.via === 'call' ? t('widgetConfirm_viaCall') : t('widgetConfirm_viaBatch')}</p>
      {variables.length ? <p class="hint">{t('widgetConfirm_variables', variables.map(([k, v]) => `${k}=${v}`).join(', '))}</p> : null}
      {pending.hostShowsTranscripts ? (
        <>
          <label>
            <input type="checkbox" checked={share} onChange={(e) => setShare((e.target as HTMLInputElement).checked)} /> {t('widgetConfirm_share', site || '?')}
          </label>
          <p class="hint">{t('widgetConfirm_shareHint')}</p>
        </>
      ) : null}
      <ErrorMessage>{error}</ErrorMessage>
      <div class="actions">
        <button type="button" class="primary" onClick={() => void confirm()} disabled={busy || !armed}>
          {t('widgetConfirm_confirm')}
        </button>
        <button type="button" class="secondary" onClick={() => void cancel()} disabled={busy}>
          {t('widgetConfirm_cancel')}
        </button>
      </div>
    </section>
  );
}

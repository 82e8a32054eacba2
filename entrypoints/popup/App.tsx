import { useEffect, useState } from 'preact/hooks';
import { ActiveCalls } from '../../components/calls/ActiveCalls';
import { CompactCallView } from '../../components/calls/CallView';
import type { RequestOrigin } from '../../components/calls/DialConfirmation';
import { DialForm, type DialPrefill } from '../../components/calls/DialForm';
import { WidgetConfirmation } from '../../components/calls/WidgetConfirmation';
import { LazySetupForm } from '../../components/settings/LazySetupForm';
import { OnThisPage } from '../../components/page/OnThisPage';
import { tNodes } from '../../components/shared/Translated';
import { browser } from '../../lib/browser';
import { t } from '../../lib/i18n';
import { queryParam } from '../../lib/ui/hooks';
import { currentWindowId, openCallDetails } from '../../lib/ui/panel';
import { useStore } from '../../lib/ui/store';
import { WholeWords } from '../../components/shared/WholeWords';

type View = { kind: 'dial' } | { kind: 'call'; callId: string };

/**
 * `popup.html?dial=<number>&agent=<id>` (opened by the background for a page's number or a
 * selection): prefill and go straight to the confirmation. A text that is not a valid number is
 * still prefilled (as an input value, never markup) so the form says why it cannot be dialled.
 */
export function dialRequest(search: string): DialPrefill | null {
  const dial = queryParam('dial', search)?.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  if (!dial) return null;
  return { toNumber: dial.slice(0, 64), agentId: queryParam('agent', search) };
}

const SOURCES = ['overlay', 'tel-link', 'context-menu', 'shortcut'] as const;
/** A host name as the background writes it (the browser's URL parser lower-cases and punycodes it). */
const HOST = /^(?:[a-z0-9-]{1,63}\.)*[a-z0-9-]{1,63}$|^\[[0-9a-f:.]+\]$/;

/**
 * `&site=<host>&top=<host>&source=…`, or `&inside=<top host>` for a frame with no site of its own:
 * which site asked, as the background read it from the browser.
 */
export function requestOrigin(search: string): RequestOrigin | null {
  const site = queryParam('site', search);
  const top = queryParam('top', search);
  const inside = queryParam('inside', search);
  const source = queryParam('source', search);
  if (site === null && inside === null && source === null) return null;
  const host = (value: string | null) => (value && HOST.test(value) ? value : null);
  const written = queryParam('written', search)?.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, 64);
  // A frame with no site of its own is never named after a site, whatever else the URL says.
  if (inside !== null) return { site: '', topSite: host(inside), opaqueFrame: true, source: SOURCES.find((s) => s === source) ?? null, ...(written ? { written } : {}) };
  return {
    site: host(site) ?? '',
    topSite: host(top),
    opaqueFrame: false,
    source: SOURCES.find((s) => s === source) ?? null,
    ...(written ? { written } : {}),
  };
}

export function PopupApp({ search = typeof location === 'undefined' ? '' : location.search }: { search?: string }) {
  const store = useStore();
  const [view, setView] = useState<View>({ kind: 'dial' });
  const [windowId, setWindowId] = useState<number | null>(null);
  /** Used once: after that call is placed, "New call" starts from a clean form. */
  const [request, setRequest] = useState(() => dialRequest(search));
  const [origin] = useState(() => requestOrigin(search));
  /** `popup.html?widget=<ticket>`: a page's `<voice-agent-call>` asks; the background holds what it asked for. */
  const [widgetTicket, setWidgetTicket] = useState(() => queryParam('widget', search));
  /**
   * Opened by the background as a confirmation (a window, or a tab where there are no windows): it
   * takes the width it is given instead of the toolbar popup's fixed width, which scrolled sideways
   * in a narrower window or a phone's tab.
   */
  const [inWindow] = useState(() => widgetTicket !== null || request !== null);
  const [detailsError, setDetailsError] = useState<string | null>(null);

  useEffect(() => {
    void currentWindowId().then(setWindowId);
  }, []);

  const ready = store.ready.value;
  const hasKey = store.hasKey.value;
  const calls = store.calls.value;
  const shown = view.kind === 'call' ? calls.find((c) => c.id === view.callId) : undefined;

  const openDetails = (callId: string) => {
    setDetailsError(null);
    // No await before this: the browsers open panels only during the click.
    openCallDetails(callId, windowId).catch((e: unknown) => setDetailsError(t('popup_detailsNotOpened', String(e))));
  };

  const newCall = (
    <button type="button" class="secondary" onClick={() => setView({ kind: 'dial' })}>
      {t('popup_newCall')}
    </button>
  );

  let body;
  if (!ready) body = <p class="hint">{t('popup_loading')}</p>;
  else if (!hasKey)
    body = (
      <>
        <p>{t('popup_connectIntro')}</p>
        <LazySetupForm />
        <p class="hint">
          {tNodes(
            'popup_firefoxPermissionHint',
            <button type="button" class="link" onClick={() => void browser.runtime.openOptionsPage()}>
              {t('popup_settingsPageLink')}
            </button>,
          )}
        </p>
      </>
    );
  else if (widgetTicket)
    body = (
      <WidgetConfirmation
        ticket={widgetTicket}
        onPlaced={(callId) => {
          setWidgetTicket(null);
          setView({ kind: 'call', callId });
        }}
      />
    );
  else if (view.kind === 'call')
    body = (
      <>
        {shown ? (
          <CompactCallView call={shown} onOpenDetails={() => openDetails(shown.id)}>
            {newCall}
          </CompactCallView>
        ) : (
          <>
            <p class="hint" role="status">
              {t('popup_startingCall')}
            </p>
            {newCall}
          </>
        )}
        {detailsError ? (
          <p role="alert" class="message message-error">
            {detailsError}
          </p>
        ) : null}
      </>
    );
  else
    body = (
      <>
        <ActiveCalls calls={calls} onShow={(callId) => setView({ kind: 'call', callId })} />
        <OnThisPage />
        <DialForm prefill={request ?? undefined} confirmAtOnce={!!request} requestedBy={request ? origin : null} onDialled={(callId) => {
            setRequest(null);
            setView({ kind: 'call', callId });
          }}
        />
      </>
    );

  return (
    <main class={inWindow ? 'popup popup-window' : 'popup'}>
      <h1>
        <WholeWords text={t('popup_title')} />
      </h1>
      {body}
    </main>
  );
}

/**
 * The popup's "On this page": the numbers the content script found in the tab (`popup.html?tab=<id>`,
 * else the active tab), each with "Call" (the popup's own confirmation, prefilled through
 * `popup.html?dial=…&agent=…`), and "Pause/Resume on this site". Small on purpose: no zod at runtime.
 */
import { useContext, useEffect, useState } from 'preact/hooks';
import type { TabNumbersView } from '../lib/messages';
import { queryParam } from '../lib/ui/hooks';
import { send } from '../lib/ui/send';
import { StoreContext } from '../lib/ui/store';
import { ErrorMessage } from './Messages';

/** `?tab=<id>` when the popup was opened for a given tab (tests, the confirmation window). */
export function tabFromSearch(search: string): number | undefined {
  const tab = queryParam('tab', search);
  return tab && /^\d{1,10}$/.test(tab) ? Number(tab) : undefined;
}

/** The popup URL that opens its confirmation for `e164` (the same path the background uses). */
export function dialSearch(e164: string, search: string, agentId?: string | null): string {
  const params = new URLSearchParams({ dial: e164, source: 'on-this-page' });
  if (agentId) params.set('agent', agentId);
  const tab = tabFromSearch(search);
  if (tab !== undefined) params.set('tab', String(tab));
  return `?${params}`;
}

export function OnThisPage({ search = typeof location === 'undefined' ? '' : location.search }: { search?: string }) {
  const [view, setView] = useState<TabNumbersView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const tabId = tabFromSearch(search);
  const store = useContext(StoreContext);

  const load = async () => {
    const reply = await send({ type: 'page/numbers-for-tab', ...(tabId !== undefined ? { tabId } : {}) });
    if (reply.ok) setView(reply.data);
    return reply.ok ? reply.data : null;
  };

  useEffect(() => {
    void load();
  }, [tabId]);

  // Nothing to say about pages the content script cannot run on (browser pages, the extension's own).
  if (!view || !view.host || view.tabId === null) return null;
  const { host, numbers, enabled } = view;

  const toggle = async () => {
    setBusy(true);
    setError(null);
    setNote(null);
    const reply = await send({ type: 'sites/update', ...(enabled ? { pause: host } : { resume: host }) });
    if (!reply.ok) setError(reply.error.message);
    else {
      const after = await load();
      if (!enabled && after && !after.enabled) {
        setNote(`Click-to-call stays off on ${host} because of the Sites settings (only listed sites, or a listed exception).`);
      }
    }
    setBusy(false);
  };

  const call = (e164: string) => {
    // The agent the background's confirmation would pick: the last one called with, else the first listed.
    const agents = store?.agentsCache.value?.agents ?? [];
    const last = store?.calls.value[0]?.agentId;
    const agentId = agents.find((a) => a.id === last)?.id ?? agents[0]?.id ?? null;
    location.search = dialSearch(e164, search, agentId);
  };

  return (
    <section class="on-this-page" aria-labelledby="on-this-page-title">
      <h2 id="on-this-page-title">On this page</h2>
      {!enabled ? (
        <p class="hint">Click-to-call is off on {host}.</p>
      ) : numbers.length === 0 ? (
        <p class="hint">No phone numbers found on {host}.</p>
      ) : (
        <ul class="plain" aria-label={`Phone numbers on ${host}`}>
          {numbers.map((n) => (
            <li key={n.e164} class="row" style={{ justifyContent: 'space-between', padding: '2px 0' }}>
              <span>
                {n.raw}
                {n.raw !== n.e164 ? <span class="hint mono"> {n.e164}</span> : null}
              </span>
              <button type="button" class="secondary small" aria-label={`Call ${n.raw}`} onClick={() => call(n.e164)}>
                Call
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        <button type="button" class="secondary small" disabled={busy} onClick={() => void toggle()}>
          {enabled ? 'Pause on this site' : 'Resume on this site'}
        </button>
      </div>
      {note ? <p class="hint" role="status">{note}</p> : null}
      <ErrorMessage>{error}</ErrorMessage>
    </section>
  );
}

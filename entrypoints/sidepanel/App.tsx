import { useEffect, useState } from 'preact/hooks';
import { AgentExecutions } from '../../components/AgentExecutions';
import { CallHistory } from '../../components/CallHistory';
import { FullCallView } from '../../components/CallView';
import { KeptAside } from '../../components/KeptAside';
import { DialForm, type DialPrefill } from '../../components/DialForm';
import { LazySetupForm } from '../../components/LazySetupForm';
import { Tabs } from '../../components/Tabs';
import { browser } from '../../lib/browser';
import { queryParam } from '../../lib/ui/hooks';
import { send } from '../../lib/ui/send';
import { useStore } from '../../lib/ui/store';

type Tab = 'call' | 'dial' | 'history' | 'executions';

const TABS: { id: Tab; label: string }[] = [
  { id: 'call', label: 'Call' },
  { id: 'dial', label: 'New call' },
  { id: 'history', label: 'History' },
  { id: 'executions', label: 'Agent executions' },
];

/**
 * The popup's `panel/open` request reaches this page too (runtime messages go to every extension
 * page): when it names a call, show it. Only this extension's own pages count, never a tab.
 */
function usePanelOpenRequests(onCall: (callId: string) => void) {
  useEffect(() => {
    const listener = (message: unknown, sender: { id?: string; tab?: unknown }) => {
      if (sender.id !== browser.runtime.id || sender.tab) return undefined;
      const m = message as { type?: unknown; callId?: unknown } | null;
      if (m && m.type === 'panel/open' && typeof m.callId === 'string') onCall(m.callId);
      return undefined; // never answer: the background does
    };
    browser.runtime.onMessage.addListener(listener);
    return () => browser.runtime.onMessage.removeListener(listener);
  }, []);
}

export function SidePanelApp({ search = typeof location === 'undefined' ? '' : location.search }: { search?: string }) {
  const store = useStore();
  const [tab, setTab] = useState<Tab>('call');
  /** null: follow the newest call. */
  const [selectedId, setSelectedId] = useState<string | null>(() => queryParam('call', search));
  const [prefill, setPrefill] = useState<{ value: DialPrefill; key: number }>({ value: {}, key: 0 });

  const showCall = (callId: string) => {
    setSelectedId(callId);
    setTab('call');
  };
  usePanelOpenRequests(showCall);

  const calls = store.calls.value;
  const selected = (selectedId ? calls.find((c) => c.id === selectedId) : undefined) ?? (selectedId ? undefined : calls[0]);

  let content;
  if (!store.ready.value) content = <p class="hint">Loading…</p>;
  else if (!store.hasKey.value) content = <LazySetupForm />;
  else
    content = (
      <Tabs<Tab> label="Side panel sections" tabs={TABS} selected={tab} onSelect={setTab}>
        {tab === 'call' ? (
          selected ? (
            <FullCallView call={selected} />
          ) : selectedId ? (
            <p class="hint">That call is no longer in the history.</p>
          ) : (
            <p class="hint">No calls yet. Place one from “New call”.</p>
          )
        ) : tab === 'dial' ? (
          <DialForm key={prefill.key} prefill={prefill.value} onDialled={showCall} />
        ) : tab === 'history' ? (
          <>
            <KeptAside source="calls" what="call history" />
            <CallHistory
              calls={calls}
              selectedId={selected?.id ?? null}
              onOpen={showCall}
              onCallAgain={(call) => {
                setPrefill({
                  key: prefill.key + 1,
                  value: { agentId: call.agentId, toNumber: call.toNumber, fromNumber: call.fromNumber, variables: call.variables },
                });
                setTab('dial');
              }}
              onForget={(callId) => {
                if (callId === selectedId) setSelectedId(null);
                void send({ type: 'call/forget', callId });
              }}
            />
          </>
        ) : (
          <AgentExecutions initialAgentId={selected?.agentId ?? ''} />
        )}
      </Tabs>
    );

  return (
    <main class="sidepanel">
      <h1>Voice Agent Click-to-Call</h1>
      {content}
    </main>
  );
}

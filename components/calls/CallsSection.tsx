import { useEffect, useState } from 'preact/hooks';
import { t, type MessageKey } from '../../lib/i18n';
import { send } from '../../lib/ui/send';
import { useStore } from '../../lib/ui/store';
import { EmptyState } from '../shared/EmptyState';
import { KeptAside } from '../shared/KeptAside';
import type { SectionProps } from '../shared/section';
import { Tabs } from '../shared/Tabs';
import { CallHistory } from './CallHistory';
import { FullCallView } from './CallView';
import { DialForm, type DialPrefill } from './DialForm';

type Tab = 'call' | 'dial' | 'history';

const TABS: { id: Tab; label: MessageKey }[] = [
  { id: 'call', label: 'callsTabs_call' },
  { id: 'dial', label: 'callsTabs_dial' },
  { id: 'history', label: 'callsTabs_history' },
];

interface CallsSectionProps extends SectionProps {
  /** The call shown; null follows the newest. */
  callId: string | null;
  onCallChange(callId: string | null): void;
  /** Changes whenever the panel is asked to show a call: the Call tab comes forward. */
  focus: number;
}

/** The side panel's calls: the call view, a dial form and the history. */
export function CallsSection({ callId, onCallChange, focus, onAgentChange }: CallsSectionProps) {
  const store = useStore();
  // First use: nothing to show yet, so the section opens on the dial form — decided from the history as
  // it loads (it may arrive after the first render), until the user picks a tab.
  const [chosen, setTab] = useState<Tab | null>(null);
  const tab: Tab = chosen ?? (callId || store.calls.value.length ? 'call' : 'dial');
  const [prefill, setPrefill] = useState<{ value: DialPrefill; key: number }>({ value: {}, key: 0 });
  useEffect(() => {
    if (focus) setTab('call');
  }, [focus]);

  const showCall = (id: string) => {
    onCallChange(id);
    setTab('call');
  };
  const calls = store.calls.value;
  const selected = (callId ? calls.find((c) => c.id === callId) : undefined) ?? (callId ? undefined : calls[0]);
  useEffect(() => {
    if (selected) onAgentChange(selected.agentId);
  }, [selected?.agentId]);

  return (
    <Tabs<Tab> label={t('callsTabs_label')} tabs={TABS.map((tab) => ({ id: tab.id, label: t(tab.label) }))} selected={tab} onSelect={setTab}>
      {tab === 'call' ? (
        selected ? (
          <FullCallView call={selected} />
        ) : callId ? (
          <p class="hint">{t('calls_noLongerInHistory')}</p>
        ) : (
          <EmptyState text={t('calls_noneYetPlaceOne')} action={t('calls_placeACall')} onAction={() => setTab('dial')} />
        )
      ) : tab === 'dial' ? (
        <DialForm key={prefill.key} prefill={prefill.value} onDialled={showCall} />
      ) : (
        <>
          <KeptAside source="calls" what="call history" />
          <CallHistory
            calls={calls}
            selectedId={selected?.id ?? null}
            onOpen={showCall}
            onDial={() => setTab('dial')}
            onCallAgain={(call) => {
              setPrefill({
                key: prefill.key + 1,
                value: { agentId: call.agentId, toNumber: call.toNumber, fromNumber: call.fromNumber, variables: call.variables },
              });
              setTab('dial');
            }}
            onForget={(id) => {
              if (id === callId) onCallChange(null);
              void send({ type: 'call/forget', callId: id });
            }}
          />
        </>
      )}
    </Tabs>
  );
}

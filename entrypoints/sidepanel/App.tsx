import { useEffect, useState } from 'preact/hooks';
import { AccountSection } from '../../components/account/AccountSection';
import { AgentsSection } from '../../components/agents/AgentsSection';
import { BatchesSection } from '../../components/batches/BatchesSection';
import { CallsSection } from '../../components/calls/CallsSection';
import { ExecutionDetails } from '../../components/calls/ExecutionDetails';
import { AgentExecutions } from '../../components/executions/AgentExecutions';
import { KnowledgebasesSection } from '../../components/knowledgebases/KnowledgebasesSection';
import { PhoneNumbersSection } from '../../components/numbers/PhoneNumbersSection';
import { PlansSection } from '../../components/plans/PlansSection';
import { LazySetupForm } from '../../components/settings/LazySetupForm';
import type { SectionProps } from '../../components/shared/section';
import { Tabs } from '../../components/shared/Tabs';
import { browser } from '../../lib/browser';
import { t, type MessageKey } from '../../lib/i18n';
import { queryParam } from '../../lib/ui/hooks';
import { useStore } from '../../lib/ui/store';
import { WholeWords } from '../../components/shared/WholeWords';

type Section = 'calls' | 'agents' | 'batches' | 'executions' | 'numbers' | 'knowledgebases' | 'plans' | 'account';

const SECTIONS: { id: Section; label: MessageKey }[] = [
  { id: 'calls', label: 'panel_sectionCalls' },
  { id: 'agents', label: 'panel_sectionAgents' },
  { id: 'batches', label: 'panel_sectionBatches' },
  { id: 'executions', label: 'panel_sectionExecutions' },
  { id: 'numbers', label: 'panel_sectionNumbers' },
  { id: 'knowledgebases', label: 'panel_sectionKnowledgebases' },
  { id: 'plans', label: 'panel_sectionPlans' },
  { id: 'account', label: 'panel_sectionAccount' },
];

const SECTION_VIEWS: Record<Exclude<Section, 'calls'>, (props: SectionProps) => preact.JSX.Element> = {
  agents: AgentsSection,
  batches: BatchesSection,
  executions: AgentExecutions,
  numbers: PhoneNumbersSection,
  knowledgebases: KnowledgebasesSection,
  plans: PlansSection,
  account: AccountSection,
};

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

const isSection = (value: string | null): value is Section => SECTIONS.some((s) => s.id === value);

export function SidePanelApp({ search = typeof location === 'undefined' ? '' : location.search }: { search?: string }) {
  const store = useStore();
  const [section, setSection] = useState<Section>(() => {
    const asked = queryParam('section', search);
    return isSection(asked) ? asked : 'calls';
  });
  /** null: follow the newest call. */
  const [callId, setCallId] = useState<string | null>(() => queryParam('call', search));
  /** A service execution opened from a section, shown in the call view over that section. */
  const [executionId, setExecutionId] = useState<string | null>(null);
  const [agentId, setAgentId] = useState('');
  /** Bumped to make the Calls section show its Call tab. */
  const [callFocus, setCallFocus] = useState(0);

  const openCall = (id: string) => {
    setCallId(id);
    setExecutionId(null);
    setSection('calls');
    setCallFocus((n) => n + 1);
  };
  usePanelOpenRequests(openCall);

  const props: SectionProps = { agentId, onAgentChange: setAgentId, openExecution: setExecutionId, openCall };

  let content;
  if (!store.ready.value) content = <p class="hint">{t('panel_loading')}</p>;
  else if (!store.hasKey.value) content = <LazySetupForm />;
  else {
    const View = section === 'calls' ? null : SECTION_VIEWS[section];
    content = (
      <Tabs<Section>
        label={t('panel_sectionsLabel')}
        moreLabel={t('panel_more')}
        tabs={SECTIONS.map((s) => ({ id: s.id, label: t(s.label) }))}
        selected={section}
        onSelect={(next) => {
          setExecutionId(null);
          setSection(next);
        }}
      >
        {executionId ? (
          <ExecutionDetails executionId={executionId} onBack={() => setExecutionId(null)} />
        ) : View ? (
          <View {...props} />
        ) : (
          <CallsSection {...props} callId={callId} onCallChange={setCallId} focus={callFocus} />
        )}
      </Tabs>
    );
  }

  return (
    <main class="sidepanel">
      <h1>
        <WholeWords text={t('extName')} />
      </h1>
      {content}
    </main>
  );
}

import { t } from '../../lib/i18n';
import { AgentPicker } from '../agents/AgentPicker';
import { ErrorMessage } from '../shared/Messages';
import type { SectionProps } from '../shared/section';
import { BatchDetails } from './BatchDetails';
import { BatchList } from './BatchList';
import { NewBatch } from './NewBatch';
import { openBatchId } from './state';
import { useBatchList } from './useBatches';

/** The side panel's Batches section: the chosen agent's batches, a new batch from a CSV file, and one batch's details. */
export function BatchesSection({ agentId, onAgentChange, openExecution }: SectionProps) {
  const { batches, error, loading, version, reload } = useBatchList(agentId);
  const openId = openBatchId.value;
  const open = openId ? batches?.find((b) => b.batch_id === openId) : undefined;

  return (
    <section class="batches-section" aria-label={t('batches_title')}>
      <AgentPicker
        id="batches-agent"
        value={agentId}
        refreshOnMount={false}
        onChange={(id) => {
          openBatchId.value = null;
          onAgentChange(id);
        }}
      />
      <ErrorMessage>{error}</ErrorMessage>
      <p class="hint" role="status" aria-live="polite">
        {!agentId ? t('batches_chooseAgent') : loading && !batches ? t('batches_loading') : ''}
      </p>
      {agentId && open ? (
        <BatchDetails
          batch={open}
          version={version}
          onChanged={reload}
          onClose={() => {
            openBatchId.value = null;
          }}
          openExecution={openExecution}
        />
      ) : agentId ? (
        <>
          {openId && batches && !loading ? <p class="hint">{t('batches_openNoLongerListed')}</p> : null}
          <h2>{t('batches_title')}</h2>
          {batches ? <BatchList batches={batches} onOpen={(id) => (openBatchId.value = id)} /> : null}
          <NewBatch
            agentId={agentId}
            onCreated={(id) => {
              openBatchId.value = id;
              reload();
            }}
          />
        </>
      ) : null}
    </section>
  );
}

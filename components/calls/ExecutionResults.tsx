import type { Execution } from '../../lib/api/schemas/execution';
import { CallOutcome } from './CallOutcome';
import { CostBreakdown } from './CostBreakdown';
import { ExecutionLog } from './ExecutionLog';
import { ExtractedData } from './ExtractedData';
import { ErrorMessage } from '../shared/Messages';
import { RecordingPlayer } from './RecordingPlayer';
import { ResultActions } from './ResultActions';
import { TelephonyDetails } from './TelephonyDetails';
import { Transcript } from './Transcript';

interface ExecutionResultsProps {
  execution: Execution;
  /** Fetch the execution again (fresh recording link). */
  onReload?: () => void;
  reloading?: boolean;
  reloadError?: string | null;
}

/** Everything a finished call left behind. */
export function ExecutionResults({ execution, onReload, reloading, reloadError }: ExecutionResultsProps) {
  return (
    <div class="results">
      <CallOutcome execution={execution} />
      <ResultActions execution={execution} />
      <Transcript text={execution.transcript} />
      <RecordingPlayer url={execution.telephony_data?.recording_url} onReload={onReload} reloading={reloading} />
      <ErrorMessage>{reloadError}</ErrorMessage>
      <ExtractedData data={execution.extracted_data} />
      <CostBreakdown total={execution.total_cost} breakdown={execution.cost_breakdown} />
      <TelephonyDetails execution={execution} />
      <ExecutionLog executionId={execution.id} />
    </div>
  );
}

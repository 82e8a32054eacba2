/** The slice of the API client the placement engine needs (lib/api/client.ts provides it). */
import type { Batch } from '../api/schemas/batch';
import type { Execution } from '../api/schemas/execution';

export interface PlacementClient {
  createBatch(req: { agent_id: string; csv: string; file_name?: string; from_phone_numbers?: string[] }): Promise<{ batch_id: string }>;
  scheduleBatch(batchId: string, at: Date | string): Promise<unknown>;
  listBatchExecutions(batchId: string): Promise<Execution[]>;
  getExecution(executionId: string): Promise<Execution>;
  getBatch(batchId: string): Promise<Batch>;
  stopBatch(batchId: string): Promise<unknown>;
  listAgentBatches(agentId: string): Promise<Batch[]>;
  deleteBatch(batchId: string): Promise<unknown>;
  startCall(request: {
    agent_id: string;
    recipient_phone_number: string;
    from_phone_number?: string;
    user_data?: Record<string, string>;
  }): Promise<{ execution_id: string }>;
  stopCall(executionId: string): Promise<unknown>;
  /** False once the service is known to lack `POST /call` (remembered per base URL). */
  offersStartCall?(): Promise<boolean | undefined>;
  listAgentExecutions(agentId: string, query?: { from?: string | Date; to?: string | Date; page_size?: number; page_number?: number }): Promise<{ data: Execution[]; has_more?: boolean }>;
  /** The service clock's speed relative to ours (1 for the real service; the sandbox may run faster). */
  timeScale?(): number;
  /** The service clock minus ours (ms), once an answer's `Date` header has been seen. */
  clockOffset?(): number | undefined;
}

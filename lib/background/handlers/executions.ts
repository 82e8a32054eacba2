/** Answers the requests of lib/requests/executions.ts. */
import { isRouteMissing } from '../../api/errors';
import { windowProblem } from '../../executions/filter';
import { shownPage } from '../../executions/page';
import type { ExecutionReplies } from '../../requests/executions';
import { InputError } from '../input-error';
import { currentClient } from '../service';
import type { Handlers } from './types';

export const executionsHandlers: Handlers<keyof ExecutionReplies> = {
  async 'executions/list'(request) {
    // The same rule the side panel checks: a request past it would only earn the service's 400.
    const problem = windowProblem(request.from, request.to);
    if (problem) throw new InputError(problem);
    const query = { from: request.from, to: request.to, status: request.status, batchId: request.batchId };
    const answer = await (await currentClient()).listAgentExecutions(request.agentId, {
      page_number: request.pageNumber,
      page_size: request.pageSize,
      ...(request.status ? { status: request.status } : {}),
      ...(request.batchId ? { batch_id: request.batchId } : {}),
      from: new Date(request.from),
      to: new Date(request.to),
    });
    return shownPage(answer, query, request.pageNumber, request.pageSize);
  },

  async 'executions/batches'(request) {
    try {
      const batches = await (await currentClient()).listAgentBatches(request.agentId);
      return batches
        .map((b) => ({ batchId: b.batch_id, fileName: b.file_name ?? null, createdAt: b.created_at ?? null }))
        .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
    } catch (error) {
      // A service without a batch list route: the filter still takes a batch id typed in.
      if (isRouteMissing(error)) return [];
      throw error;
    }
  },
};

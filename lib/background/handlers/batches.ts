/** Answers the requests of lib/requests/batches.ts. */
import { scheduledAt, ScheduleError } from '../../api/schedule';
import { cleanedCsv, previewContacts, readyToSend } from '../../batches/contacts';
import { UploadError, UploadStaging } from '../../batches/upload';
import { parsePhoneInput } from '../../phone/normalize';
import { executionDuration } from '../../executions/duration';
import type { BatchReplies } from '../../requests/batches';
import { batchPlacements } from '../batch-placements';
import { InputError } from '../input-error';
import { currentClient } from '../service';
import type { Handlers } from './types';

/** Contact lists on their way in (parts of one upload), per upload id; lost with the worker, which the UI reports. */
const staging = new UploadStaging();

function staged<T>(step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof UploadError) throw new InputError(e.message);
    throw e;
  }
}

export const batchesHandlers: Handlers<keyof BatchReplies> = {
  async 'batches/list'({ agentId }) {
    return (await currentClient()).listAgentBatches(agentId);
  },

  async 'batches/executions'({ batchId }) {
    const executions = await (await currentClient()).listBatchExecutions(batchId);
    return executions.map((e) => {
      const recipient: unknown = e.context_details?.recipient_phone_number;
      return {
        id: e.id,
        status: e.status,
        to_number: e.telephony_data?.to_number ?? (typeof recipient === 'string' ? recipient : null),
        duration: executionDuration(e),
        total_cost: e.total_cost ?? null,
        created_at: e.created_at ?? null,
      };
    });
  },

  async 'batches/upload-part'({ uploadId, index, total, text }) {
    return staged(() => staging.put(uploadId, index, total, text));
  },

  async 'batches/create'({ agentId, uploadId, fileName, country }) {
    const client = await currentClient();
    const text = staged(() => staging.take(uploadId));
    // The side panel checked the list; the background checks it again with the same rules before sending.
    const preview = previewContacts(text, { country, parseNumber: parsePhoneInput });
    if (!readyToSend(preview)) {
      const row = preview.rows.find((r) => r.problems.length);
      throw new InputError(preview.fileProblem ?? `The contact list was not sent: line ${row?.line}: ${row?.problems[0] ?? 'no contacts'}`);
    }
    // A placement of N rows on the one engine: made once however its answers fare, scheduled when the user picks a time.
    const made = await batchPlacements().create({ id: `upload-${uploadId}`, baseUrl: client.baseUrl, agentId, fileName, csv: cleanedCsv(preview) });
    return { batchId: made.batchId! };
  },

  async 'batches/schedule'({ batchId, scheduledAt: text }, ctx) {
    const at = new Date(text);
    if (Number.isNaN(at.getTime())) throw new InputError('The start time is not a valid date.');
    let checked: string;
    try {
      checked = scheduledAt(at, new Date(ctx.now()));
    } catch (e) {
      if (e instanceof ScheduleError) throw new InputError(e.message);
      throw e;
    }
    const client = await currentClient();
    const done = await batchPlacements().schedule({ baseUrl: client.baseUrl, agentId: null, batchId, at: checked });
    return { scheduledAt: done.scheduledAt ?? checked };
  },

  async 'batches/stop'({ batchId }) {
    const client = await currentClient();
    const r = await batchPlacements().stop({ baseUrl: client.baseUrl, agentId: null, batchId });
    // The service said there was nothing to stop (the batch had ended): its words, as before.
    if (r.stopRefused) throw new InputError(r.stopRefused, 'service');
    if (r.failure || r.trackingPaused) throw new InputError(r.lastError ?? r.failure?.message ?? 'The batch was not stopped.', 'service');
    return { stopping: !r.stopSent };
  },

  async 'batches/delete'({ batchId }) {
    const client = await currentClient();
    await batchPlacements().remove({ baseUrl: client.baseUrl, batchId });
    return {};
  },
};

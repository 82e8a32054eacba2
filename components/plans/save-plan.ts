/**
 * Saves a plan from the side panel: in one message when it fits (64 KB), else its JSON text in parts
 * (`plans/upload-part`, as contact lists travel) and then `plans/save-upload`. The background checks the
 * plan the same way either way.
 */
import { splitParts } from '../../lib/batches/upload';
import { MAX_MESSAGE_BYTES, messageSize } from '../../lib/message-size';
import type { TestPlan } from '../../lib/plans/schema';
import { send } from '../../lib/ui/send';

/** Room left for the envelope the messaging layer adds. */
const MARGIN = 1_024;

export async function savePlan(planId: string, plan: TestPlan) {
  const whole = { type: 'plans/save', planId, plan } as const;
  if (messageSize(whole) <= MAX_MESSAGE_BYTES - MARGIN) return send(whole);
  const uploadId = crypto.randomUUID();
  const parts = splitParts(JSON.stringify(plan));
  for (const [index, text] of parts.entries()) {
    const reply = await send({ type: 'plans/upload-part', uploadId, index, total: parts.length, text });
    if (!reply.ok) return reply;
  }
  return send({ type: 'plans/save-upload', planId, uploadId });
}

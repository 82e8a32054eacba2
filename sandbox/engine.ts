import { MAX_LOG_ENTRIES } from './store';
/**
 * The call engine: applies the pure rules of calls.ts with timers. A batch waits for its start
 * (scheduled_at − now, divided by speed), then every row walks its outcome's statuses; each change
 * updates the batch and fires a webhook. All timers go through rt.timers so close()/reset() stop them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { isTerminalExecutionStatus } from '../lib/api/schemas';
import {
  fieldsOnEnter,
  firstPhase,
  nextPhase,
  outcomeFor,
  stoppedResult,
  type CallContext,
  type ResultFields,
} from './calls';
import type { Runtime } from './runtime';
import type { Account, BatchRec, ExecRec } from './store';
import { executionWire } from './wire';

export function callContext(account: Account, exec: ExecRec): CallContext {
  const agent = account.agents.get(exec.agent_id);
  return {
    agentName: agent?.agent_name ?? 'our team',
    welcomeMessage: agent?.agent_welcome_message,
    recipientData: exec.recipient_data,
    toNumber: exec.to_number,
  };
}

function webhookUrlFor(account: Account, exec: ExecRec): string | null {
  const batch = exec.batch_id ? account.batches.get(exec.batch_id) : undefined;
  return batch?.webhook_url ?? account.agents.get(exec.agent_id)?.webhook_url ?? null;
}

/** Moves an execution to `status`, applying result fields; notifies the webhook and the batch. */
export function setExecStatus(rt: Runtime, account: Account, exec: ExecRec, status: string, fields: Partial<ResultFields> = {}): void {
  if (exec.status === status && Object.keys(fields).length === 0) return;
  const now = Date.now();
  Object.assign(exec, fields);
  if (exec.status !== status && rt.store.statusEvents.length < MAX_LOG_ENTRIES) rt.store.statusEvents.push({ execution_id: exec.id, status, at: now });
  exec.status = status;
  exec.updated_at = new Date(now).toISOString();
  if (status === 'initiated' && !exec.provider_call_id) {
    exec.provider_call_id = exec.provider === 'plivo' ? randomUUID() : `CA${randomBytes(16).toString('hex')}`;
  }
  if (status === 'in-progress') exec.answered_at_ms = now;
  if (status === 'completed' && exec.total_cost) {
    account.wallet = Math.round((account.wallet - exec.total_cost / 100) * 100) / 100;
  }
  const url = webhookUrlFor(account, exec);
  if (url) rt.webhooks.send(url, exec.id, status, executionWire(rt, exec));
  if (exec.batch_id) {
    const batch = account.batches.get(exec.batch_id);
    if (batch) refreshBatch(account, batch);
  }
}

/** A batch ends when every row is terminal: failed if no call could be placed at all, else completed. */
export function refreshBatch(account: Account, batch: BatchRec): void {
  if (batch.status !== 'running') return;
  const execs = batch.execution_ids.map((id) => account.executions.get(id)).filter((e): e is ExecRec => !!e);
  if (!execs.every((e) => isTerminalExecutionStatus(e.status))) return;
  const placed = execs.some((e) => e.status !== 'error' && e.status !== 'balance-low');
  batch.status = placed ? 'completed' : 'failed';
  batch.updated_at = new Date().toISOString();
}

/** Arms the timer that moves the call to its next status. */
function armNext(rt: Runtime, account: Account, exec: ExecRec): void {
  const next = nextPhase(exec.status, exec.outcome);
  if (!next) return;
  exec.cancelPhase = rt.timers.after(rt.scaled(next.afterMs), () => {
    exec.cancelPhase = undefined;
    setExecStatus(rt, account, exec, next.status, fieldsOnEnter(next.status, exec.outcome, callContext(account, exec)));
    armNext(rt, account, exec);
  });
}

export function startBatch(rt: Runtime, account: Account, batch: BatchRec): void {
  batch.cancelStart = undefined;
  batch.status = 'running';
  batch.updated_at = new Date().toISOString();
  for (const id of batch.execution_ids) {
    const exec = account.executions.get(id);
    if (!exec || exec.status !== 'scheduled') continue;
    startExecution(rt, account, exec);
  }
  refreshBatch(account, batch);
}

/** Dials one execution now (a batch row at its start, or an immediate `POST /call`): it walks its outcome's statuses. */
export function startExecution(rt: Runtime, account: Account, exec: ExecRec): void {
  // The wallet is checked when the call is dialled, not when the batch was made.
  exec.outcome = outcomeFor(exec.to_number, { walletEmpty: account.wallet <= 0 });
  const first = firstPhase(exec.outcome);
  setExecStatus(rt, account, exec, first.status, fieldsOnEnter(first.status, exec.outcome, callContext(account, exec)));
  armNext(rt, account, exec);
}

/** Stops one execution that is not over yet (its pending step is cancelled; results as far as it got). */
export function stopExecution(rt: Runtime, account: Account, exec: ExecRec): void {
  if (isTerminalExecutionStatus(exec.status)) return;
  exec.cancelPhase?.();
  exec.cancelPhase = undefined;
  const answeredSeconds = exec.answered_at_ms === null ? null : ((Date.now() - exec.answered_at_ms) * rt.options.speed) / 1000;
  setExecStatus(rt, account, exec, 'stopped', stoppedResult(exec.outcome, callContext(account, exec), answeredSeconds));
}

/** Schedules (or reschedules) a batch to start at `startAt`; the wait is divided by speed. */
export function scheduleBatch(rt: Runtime, account: Account, batch: BatchRec, startAt: Date, scheduledAtText: string): void {
  batch.cancelStart?.();
  batch.status = 'scheduled';
  batch.scheduled_at = scheduledAtText;
  batch.updated_at = new Date().toISOString();
  for (const id of batch.execution_ids) {
    const exec = account.executions.get(id);
    if (exec && (exec.status === 'prepared' || exec.status === 'scheduled')) setExecStatus(rt, account, exec, 'scheduled');
  }
  const waitMs = Math.max(0, startAt.getTime() - Date.now());
  batch.cancelStart = rt.timers.after(rt.scaled(waitMs), () => startBatch(rt, account, batch));
}

/** Stops a scheduled or running batch: every row not yet terminal becomes `stopped`. */
export function stopBatch(rt: Runtime, account: Account, batch: BatchRec): void {
  batch.cancelStart?.();
  batch.cancelStart = undefined;
  batch.status = 'stopped';
  batch.updated_at = new Date().toISOString();
  for (const id of batch.execution_ids) {
    const exec = account.executions.get(id);
    if (exec) stopExecution(rt, account, exec);
  }
}

/** Calls on the line right now (for `GET /user/me` concurrency.current). */
export function activeCalls(account: Account): number {
  let n = 0;
  for (const exec of account.executions.values()) {
    if (exec.status === 'initiated' || exec.status === 'ringing' || exec.status === 'in-progress') n++;
  }
  return n;
}

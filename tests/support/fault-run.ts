/**
 * A run of many calls through the fault proxy, shared by the fault e2e test and the fault bench:
 * the dial plan (numbers whose last four digits pick the sandbox's outcome), placing a dial through
 * the UI message path, stopping the service worker, reading the extension's history, the sandbox's
 * own truth (read directly, never through the proxy), and the comparison of the two.
 */
import type { BrowserContext, Page } from 'playwright-core';
import type { CallRecord } from '../../lib/calls/call-record';
import { isTerminalExecutionStatus } from '../../lib/api/status-vocabulary';
import { OWNER_KEY } from '../../sandbox/keys';
import type { InjectedFault } from './fault-proxy';
import { storedCallsIn } from './data-store';

/** Runs inside extension pages, where Chromium's `chrome` API exists. */
declare const chrome: any;

/** The outcomes of the README's test numbers this run mixes, and the status the sandbox ends each with. */
export const OUTCOMES = [
  { outcome: 'completed', suffix: '2671', status: 'completed' },
  { outcome: 'busy', suffix: '1001', status: 'busy' },
  { outcome: 'no-answer', suffix: '1002', status: 'no-answer' },
  { outcome: 'voicemail', suffix: '1004', status: 'completed' },
  { outcome: 'canceled', suffix: '1006', status: 'canceled' },
] as const;

export interface Dial {
  /** From 1, in the order placed. */
  n: number;
  number: string;
  outcome: (typeof OUTCOMES)[number]['outcome'];
  /** The terminal status the sandbox gives this number. */
  expected: string;
}

/** `count` dials cycling through the outcomes; each number is unique (+1 415 2NN XXXX), so it names its dial. */
export function dialPlan(count: number): Dial[] {
  return Array.from({ length: count }, (_, i) => {
    const { outcome, suffix, status } = OUTCOMES[i % OUTCOMES.length]!;
    return { n: i + 1, number: `+1415${200 + i}${suffix}`, outcome, expected: status };
  });
}

/**
 * Names a request for the proxy's fault log from its body: the number a batch's CSV calls, or the
 * batch id a spec-form schedule (`POST /batches/schedule`, the id in the form) names.
 */
export function requestLabel(_method: string, _path: string, body: Buffer): string | undefined {
  const text = body.toString('latin1');
  return text.match(/\+1415\d{7}/)?.[0] ?? text.match(/name="batch_id"\r?\n\r?\n([0-9a-f]{32})/)?.[1];
}

/** Places a dial through the UI message path, as the popup's Confirm does. Answers the reply. */
export async function sendDial(page: Page, agentId: string, toNumber: string): Promise<{ ok: boolean; error?: { message: string } }> {
  // One intent, one id (as Confirm picks one): a resent message would be the same call.
  const message = { type: 'call/dial', dialId: crypto.randomUUID(), agentId, toNumber, fromNumber: null, variables: {} };
  return page.evaluate((m) => chrome.runtime.sendMessage(m), message);
}

/** The calls the background keeps, read from an extension page (the one place that knows where). */
export async function readHistory(page: Page): Promise<CallRecord[]> {
  return storedCallsIn<CallRecord>(page);
}

export { stopServiceWorker } from './chromium';

/** A call the extension still follows by itself (not finished, not waiting for the user). */
export const isFollowed = (call: CallRecord) => call.step !== 'finished' && !call.failure && !call.trackingPaused;

/** Dials whose history record is still followed: the run is over when there are none. */
export function stillFollowed(dials: readonly Dial[], history: readonly CallRecord[]): number[] {
  return dials.filter((d) => history.some((c) => c.toNumber === d.number && isFollowed(c))).map((d) => d.n);
}

export interface SandboxBatch {
  batch_id: string;
  file_name: string;
  status: string;
  created_at: string;
  executions: { id: string; status: string }[];
}

/** What the sandbox holds for each number: the batches calling it and their executions. */
export interface SandboxTruth {
  byNumber: Map<string, SandboxBatch[]>;
  /** Successful batch creations in the sandbox's own request log. */
  batchesCreated: number;
  /** Service requests the sandbox logged before this read, CORS preflights aside (faulted ones never reach it). */
  requests: number;
}

async function getJson(url: string): Promise<any> {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${OWNER_KEY}` } });
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return res.json();
}

/** Reads the sandbox directly (GET /batches…, /executions…, /__sandbox/requests): the truth to compare with. */
export async function sandboxTruth(sandboxUrl: string, agentId: string): Promise<SandboxTruth> {
  // The log first: the reads below are logged too.
  const log: { method: string; path: string; status: number }[] = await (await fetch(`${sandboxUrl}/__sandbox/requests`)).json();
  const byNumber = new Map<string, SandboxBatch[]>();
  const batches: { batch_id: string; file_name: string; status: string; created_at: string }[] = await getJson(`${sandboxUrl}/batches/${agentId}/all`);
  for (const batch of batches) {
    const rows: { id: string; telephony_data?: { to_number?: string } }[] = await getJson(`${sandboxUrl}/batches/${batch.batch_id}/executions`);
    const executions = await Promise.all(rows.map(async (r) => ({ id: r.id, status: (await getJson(`${sandboxUrl}/executions/${r.id}`)).status as string })));
    for (const number of new Set(rows.map((r) => r.telephony_data?.to_number ?? ''))) {
      byNumber.set(number, [...(byNumber.get(number) ?? []), { batch_id: batch.batch_id, file_name: batch.file_name, status: batch.status, created_at: batch.created_at, executions }]);
    }
  }
  return {
    byNumber,
    batchesCreated: log.filter((r) => r.method === 'POST' && r.path === '/batches' && r.status === 201).length,
    requests: log.filter((r) => r.method !== 'OPTIONS').length,
  };
}

export interface DialResult {
  dial: Dial;
  /** Batches the sandbox holds for this dial's number. */
  batches: number;
  sandboxStatus: string | null;
  historyStatus: string | null;
  /** The history record reached the sandbox's terminal status for this dial. */
  reachedTruth: boolean;
  problems: string[];
}

/** Faults that touched a dial: its CSV's number, its batch ids or execution ids in the path. */
export function faultsOf(dial: Dial, batches: readonly SandboxBatch[], log: readonly InjectedFault[]): InjectedFault[] {
  const ids = batches.flatMap((b) => [b.batch_id, ...b.executions.map((e) => e.id)]);
  return log.filter((f) => f.label === dial.number || ids.some((id) => f.path.includes(id) || f.label === id));
}

/** `3be36b87 completed, e9199261 created +12 ms`: each batch, and how long after the first it was made. */
function describeBatches(batches: readonly SandboxBatch[]): string {
  const first = Math.min(...batches.map((b) => Date.parse(b.created_at)));
  return [...batches]
    .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
    .map((b) => `${b.batch_id.slice(0, 8)} ${b.status}${Date.parse(b.created_at) > first ? ` +${Date.parse(b.created_at) - first} ms` : ''}`)
    .join(', ');
}

const describeFault = (f: InjectedFault) => `${f.kind} on ${f.method} ${f.path.replace(/\?.*/, '')}`;

/** Compares each dial's history record with the sandbox's truth; every mismatch is a sentence. */
export function compareRun(dials: readonly Dial[], history: readonly CallRecord[], truth: SandboxTruth, log: readonly InjectedFault[] = []): DialResult[] {
  return dials.map((dial) => {
    const problems: string[] = [];
    const batches = truth.byNumber.get(dial.number) ?? [];
    const records = history.filter((c) => c.toNumber === dial.number);
    const record = records[0];
    const executions = batches.flatMap((b) => b.executions);
    // The execution the extension follows, else the only one there is.
    const execution = executions.find((e) => e.id === record?.executionId) ?? (executions.length === 1 ? executions[0] : undefined);
    const sandboxStatus = execution?.status ?? null;

    if (batches.length !== 1) problems.push(batches.length === 0 ? 'no batch at the sandbox' : `${batches.length} batches at the sandbox (${describeBatches(batches)})`);
    if (!record) problems.push('missing from history');
    if (records.length > 1) problems.push(`${records.length} records in history`);
    if (record) {
      if (record.failure) problems.push(`stopped at a failed step "${record.failure.step}": ${record.failure.message}`);
      else if (record.trackingPaused) problems.push(`tracking paused: ${record.lastError ?? ''}`);
      else if (record.step !== 'finished') problems.push(`still at step "${record.step}"`);
      if (batches.length && record.batchId && !batches.some((b) => b.batch_id === record.batchId)) problems.push(`history names batch ${record.batchId.slice(0, 8)}, which does not call this number`);
      if (batches.length && !record.batchId) problems.push('history names no batch');
    }
    if (sandboxStatus && !isTerminalExecutionStatus(sandboxStatus)) problems.push(`the sandbox holds the non-terminal status "${sandboxStatus}"`);
    if (sandboxStatus && isTerminalExecutionStatus(sandboxStatus) && sandboxStatus !== dial.expected) problems.push(`the sandbox ended "${sandboxStatus}", not "${dial.expected}"`);
    if (record && sandboxStatus && isTerminalExecutionStatus(sandboxStatus) && record.status !== sandboxStatus) problems.push(`history says "${record.status ?? 'no status'}", the sandbox holds "${sandboxStatus}"`);

    if (problems.length) {
      const faults = faultsOf(dial, batches, log);
      if (faults.length) problems.push(`faults on this dial: ${faults.map(describeFault).join('; ')}`);
    }
    const reachedTruth = Boolean(record && sandboxStatus && isTerminalExecutionStatus(sandboxStatus) && record.step === 'finished' && record.status === sandboxStatus);
    return { dial, batches: batches.length, sandboxStatus, historyStatus: record?.status ?? null, reachedTruth, problems };
  });
}

/** One line per dial that went wrong: `dial 7 (+14152061002, no-answer): 2 batches …; faults on this dial: …`. */
export function problemLines(results: readonly DialResult[]): string[] {
  return results.filter((r) => r.problems.length).map((r) => `dial ${r.dial.n} (${r.dial.number}, ${r.dial.outcome}): ${r.problems.join('; ')}`);
}

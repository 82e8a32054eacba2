/**
 * Helpers for tests and benches that drive a sandbox over HTTP (plain fetch + FormData, as a
 * browser client would). Not used by the server itself.
 */
import { formatScheduledAt } from '../lib/api/schedule';
import { isTerminalExecutionStatus } from '../lib/api/schemas';
import { OWNER_KEY } from './keys';

export interface Call {
  status: number;
  headers: Headers;
  /** Parsed JSON (any route's shape), or the raw text when not JSON. */
  body: any;
}

/** Calls the sandbox with a key; JSON bodies are serialized, FormData is sent as multipart. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Call> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? OWNER_KEY : opts.key;
  if (key) headers.Authorization = `Bearer ${key}`;
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) body = opts.body; // the boundary is set by fetch
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** A `POST /batches` form: CSV built from `rows` (header from the first row's keys). */
export function batchForm(agentId: string, rows: Array<Record<string, string>>, extra: Record<string, string | string[]> = {}): FormData {
  const header = Object.keys(rows[0] ?? { contact_number: '' });
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const csv = [header.join(','), ...rows.map((r) => header.map((h) => quote(r[h] ?? '')).join(','))].join('\n');
  const form = new FormData();
  form.append('agent_id', agentId);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  for (const [name, value] of Object.entries(extra)) for (const v of [value].flat()) form.append(name, v);
  return form;
}

/** `scheduled_at` text `ms` from now, with the `+00:00` offset the service wants. */
export const scheduledAtIn = (ms: number, now = Date.now()) => formatScheduledAt(new Date(now + ms));

export async function waitFor<T>(probe: () => Promise<T | undefined | false>, { timeoutMs = 10_000, intervalMs = 20, what = 'condition' } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Polls `GET /executions/{id}` until a terminal status; answers the full record. */
export function waitForTerminal(base: string, executionId: string, key: string = OWNER_KEY, timeoutMs = 10_000) {
  return waitFor(
    async () => {
      const res = await call(base, 'GET', `/executions/${executionId}`, { key });
      return isTerminalExecutionStatus(res.body?.status) ? res.body : undefined;
    },
    { timeoutMs, what: `execution ${executionId} to end` },
  );
}

/** Creates a batch of `rows` for `agentId` and schedules it 3 minutes ahead; answers its ids. */
export async function placeCalls(
  base: string,
  agentId: string,
  rows: Array<Record<string, string>>,
  opts: { key?: string; extra?: Record<string, string | string[]>; form?: 'live' | 'spec' } = {},
): Promise<{ batchId: string; executionIds: string[] }> {
  const key = opts.key ?? OWNER_KEY;
  const created = await call(base, 'POST', '/batches', { key, body: batchForm(agentId, rows, opts.extra) });
  if (created.status !== 201) throw new Error(`POST /batches answered ${created.status}: ${JSON.stringify(created.body)}`);
  const batchId: string = created.body.batch_id;
  const form = new FormData();
  form.append('scheduled_at', scheduledAtIn(3 * 60_000));
  const scheduled =
    opts.form === 'spec'
      ? (form.append('batch_id', batchId), await call(base, 'POST', '/batches/schedule', { key, body: form }))
      : await call(base, 'POST', `/batches/${batchId}/schedule`, { key, body: form });
  if (scheduled.status !== 200) throw new Error(`schedule answered ${scheduled.status}: ${JSON.stringify(scheduled.body)}`);
  const list = await call(base, 'GET', `/batches/${batchId}/executions`, { key });
  return { batchId, executionIds: (list.body as Array<{ id: string }>).map((e) => e.id) };
}

/**
 * Recent calls as stored: `{version, calls}`. Read schema-checked, never lossy: a record that does not
 * parse, or a whole value that is unreadable or from a newer version, is handed back as `keepAside`
 * (with the reason) for the store to quarantine untouched, and reported rather than breaking the list.
 *
 * Versions: 0, a bare array of records (storage.local); 1, `{version: 1, calls}` (storage.local);
 * 2, the same container in the extension origin's IndexedDB (lib/background/call-store.ts). The record
 * shape did not change between them, so reading an older one is taking its records as they are.
 */
import { z } from '../api/zod';
import { callRecord, type CallRecord } from './call-record';

export const CALLS_STORAGE_KEY = 'calls';
export const CALLS_VERSION = 2;
/**
 * Recent calls kept; the oldest finished ones go first. History lives in IndexedDB (no storage.local
 * quota, no copy into pages), so a test run of a hundred calls keeps every one of them.
 */
export const MAX_CALLS = 100;

const stored = z.object({ version: z.number().int().nonnegative(), calls: z.array(z.unknown()) });

/** A stored value that could not be used, as it was found, and why. */
export interface KeptAside {
  reason: string;
  value: unknown;
}

export interface CallsRead {
  calls: CallRecord[];
  problems: string[];
  /** What must be kept aside before anything replaces the stored value. */
  keepAside: KeptAside[];
}

export function readCalls(raw: unknown): CallsRead {
  if (raw === undefined || raw === null) return { calls: [], problems: [], keepAside: [] };
  const container = Array.isArray(raw) ? { version: 0, calls: raw } : raw;
  const parsed = stored.safeParse(container);
  if (!parsed.success) {
    const reason = 'Stored call history was unreadable; it is kept aside, not shown.';
    return { calls: [], problems: [reason], keepAside: [{ reason, value: raw }] };
  }
  if (parsed.data.version > CALLS_VERSION) {
    const reason = `Stored call history is from a newer version (${parsed.data.version}); it is kept aside, not shown.`;
    return { calls: [], problems: [reason], keepAside: [{ reason, value: raw }] };
  }
  const calls: CallRecord[] = [];
  const keepAside: KeptAside[] = [];
  for (const item of parsed.data.calls) {
    const record = callRecord.safeParse(item);
    if (record.success) calls.push(record.data);
    else {
      const issue = record.error.issues[0];
      keepAside.push({ reason: `A stored call could not be read (${issue?.path.join('.')}: ${issue?.message}); it is kept aside.`, value: item });
    }
  }
  return { calls, problems: keepAside.map((k) => k.reason), keepAside };
}

export function writeCalls(calls: CallRecord[]): { version: number; calls: CallRecord[] } {
  return { version: CALLS_VERSION, calls };
}

/** Puts `call` first (replacing its older copy) and trims the oldest finished calls beyond the cap. */
export function upsertCall(calls: CallRecord[], call: CallRecord): CallRecord[] {
  const rest = calls.filter((c) => c.id !== call.id);
  const index = calls.findIndex((c) => c.id === call.id);
  const next = index === -1 ? [call, ...rest] : calls.map((c) => (c.id === call.id ? call : c));
  if (next.length <= MAX_CALLS) return next;
  const keep = next.slice();
  for (let i = keep.length - 1; i >= 0 && keep.length > MAX_CALLS; i--) {
    if (keep[i]!.step === 'finished') keep.splice(i, 1);
  }
  return keep;
}

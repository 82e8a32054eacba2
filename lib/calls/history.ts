/**
 * Recent calls as stored: `{version, calls}`. Read schema-checked; a record that does not parse is
 * dropped and reported rather than breaking the whole list. Older versions are migrated.
 */
import { z } from '../api/zod';
import { callRecord, type CallRecord } from './call-record';

export const CALLS_STORAGE_KEY = 'calls';
export const CALLS_VERSION = 1;
/** Recent calls kept; the oldest finished ones go first. */
export const MAX_CALLS = 40;

const stored = z.object({ version: z.number().int(), calls: z.array(z.unknown()) });

export interface CallsRead {
  calls: CallRecord[];
  problems: string[];
}

export function readCalls(raw: unknown): CallsRead {
  if (raw === undefined || raw === null) return { calls: [], problems: [] };
  // Version 0 was a bare array of records.
  const container = Array.isArray(raw) ? { version: 0, calls: raw } : raw;
  const parsed = stored.safeParse(container);
  if (!parsed.success) return { calls: [], problems: ['Stored call history was unreadable and has been reset.'] };
  if (parsed.data.version > CALLS_VERSION) {
    return { calls: [], problems: [`Stored call history is from a newer version (${parsed.data.version}); it is not shown.`] };
  }
  const calls: CallRecord[] = [];
  const problems: string[] = [];
  for (const item of parsed.data.calls) {
    const record = callRecord.safeParse(item);
    if (record.success) calls.push(record.data);
    else problems.push(`A stored call could not be read (${record.error.issues[0]?.path.join('.')}: ${record.error.issues[0]?.message}).`);
  }
  return { calls, problems };
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

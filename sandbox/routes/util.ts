/** Lookups and small validators shared by route modules. */
import { badRequest, notFound, unprocessable } from '../errors';
import type { Account, AgentRec, BatchRec, ExecRec } from '../store';
import type { z } from '../../lib/api/zod';

export const E164 = /^\+[1-9]\d{1,14}$/;

/** A platform number used when the account owns none and the request names none. */
const PLATFORM_NUMBER = '+18885550100';

/**
 * The from-numbers a call goes out on (batch or immediate call): the ones given, each E.164 and owned
 * by the account (else 422), or the account's first number, or the platform's.
 */
export function ownedFromNumbers(account: Account, given: string[]): string[] {
  const owned = new Set([...account.phoneNumbers.values()].map((p) => p.phone_number));
  for (const number of given) {
    if (!E164.test(number)) throw unprocessable(`from phone number '${number}' is not an E.164 phone number`);
    if (!owned.has(number)) throw unprocessable(`from phone number ${number} is not owned by this account`);
  }
  if (given.length) return [...new Set(given)];
  const first = account.phoneNumbers.values().next().value;
  return [first?.phone_number ?? PLATFORM_NUMBER];
}

export const providerOf = (account: Account, number: string) =>
  [...account.phoneNumbers.values()].find((p) => p.phone_number === number)?.telephony_provider ?? 'twilio';

export function getAgent(account: Account, id: string): AgentRec {
  const agent = account.agents.get(id);
  if (!agent) throw notFound('Agent');
  return agent;
}

export function getBatch(account: Account, id: string): BatchRec {
  const batch = account.batches.get(id);
  if (!batch) throw notFound('Batch');
  return batch;
}

export function getExecution(account: Account, id: string): ExecRec {
  const exec = account.executions.get(id);
  if (!exec) throw notFound('Execution');
  return exec;
}

export const ack = (state: string) => ({ message: 'success', state });

/** First zod issue as `path: message`, for 400 answers. */
export function zodMessage(error: z.ZodError, prefix = ''): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request body';
  const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}

export function intQuery(url: URL, name: string, opts: { min: number; max?: number; fallback: number }): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return opts.fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < opts.min) throw badRequest(`${name} must be an integer of at least ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw badRequest(`${name} must be at most ${opts.max}`);
  return n;
}

export function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Slices a sorted list into the live paging envelope. */
export function page<T>(items: T[], pageNumber: number, pageSize: number) {
  const start = (pageNumber - 1) * pageSize;
  const data = items.slice(start, start + pageSize);
  return { page_number: pageNumber, page_size: pageSize, total: items.length, has_more: start + data.length < items.length, data };
}

export const newestFirst = <T extends { created_at: string }>(a: T, b: T) => Date.parse(b.created_at) - Date.parse(a.created_at);

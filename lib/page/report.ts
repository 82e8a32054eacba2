/** What a frame tells the background it found: unique numbers in page order, capped. Pure. */
import type { PhoneMatch } from '../phone/scan';

/** Mirrors MAX_REPORTED_NUMBERS in ./messages.ts (not imported: that module builds zod schemas). */
export const MAX_REPORTED = 500;

export interface ReportedNumber {
  raw: string;
  e164: string;
}

/** The message's E.164 rule (./messages.ts): a reading past 15 digits would make the whole report fail it. */
const E164_RE = /^\+[1-9]\d{1,14}$/;

/** One entry per E.164 number (the first place it shows), at most `cap`. */
export function numbersToReport(matches: Iterable<PhoneMatch>, cap = MAX_REPORTED): ReportedNumber[] {
  const seen = new Map<string, ReportedNumber>();
  for (const m of matches) {
    if (seen.size >= cap) break;
    if (!E164_RE.test(m.e164)) continue;
    if (!seen.has(m.e164)) seen.set(m.e164, { raw: m.raw.replace(/\s+/g, ' ').trim().slice(0, 64) || m.e164, e164: m.e164 });
  }
  return [...seen.values()];
}

/** A key that changes when the reported list would. */
export function reportKey(numbers: readonly ReportedNumber[]): string {
  return numbers.map((n) => `${n.e164} ${n.raw}`).join('\n');
}

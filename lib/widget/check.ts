/**
 * The element's own checks of what it reads, without zod (zod is two thirds of a bundle a host page
 * downloads). The same rules as lib/widget/wire.ts's schemas, which the servers use;
 * tests/unit/widget/check.test.ts holds both to the same answers.
 */
import type { WidgetCallView, WidgetError } from './wire';

const plain = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);
const str = (v: unknown) => typeof v === 'string';
const strOrNull = (v: unknown) => v === null || typeof v === 'string';
const numOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));

/** Variables a page may pass (wire.ts widgetVariables): an object of up to 32 texts, names 1–64, values up to 2,000. */
export function checkVariables(value: unknown): { ok: true; variables: Record<string, string> } | { ok: false; error: string } {
  if (!plain(value)) return { ok: false, error: 'not an object of names and texts' };
  const entries = Object.entries(value);
  if (entries.length > 32) return { ok: false, error: 'at most 32 variables' };
  for (const [name, text] of entries) {
    if (name.length < 1 || name.length > 64) return { ok: false, error: `${name.slice(0, 64)}: a name of 1 to 64 characters` };
    if (typeof text !== 'string') return { ok: false, error: `${name}: a text, in quotes` };
    if (text.length > 2_000) return { ok: false, error: `${name}: at most 2000 characters` };
  }
  return { ok: true, variables: Object.fromEntries(entries) as Record<string, string> };
}

/** A WidgetCallView (wire.ts widgetCallView), or null. */
export function asCallView(value: unknown): WidgetCallView | null {
  if (!plain(value)) return null;
  const v = value;
  const observed = v.observed;
  const ok =
    str(v.id) && str(v.agentId) && str(v.toNumber) && (v.via === 'call' || v.via === 'batch') && strOrNull(v.executionId) && strOrNull(v.status) &&
    Array.isArray(observed) && observed.every((o) => plain(o) && str(o.status) && typeof o.at === 'number') &&
    typeof v.done === 'boolean' && strOrNull(v.message) && typeof v.stopRequested === 'boolean' && numOrNull(v.durationSeconds) && numOrNull(v.cost) &&
    strOrNull(v.transcript) && strOrNull(v.recordingUrl) && (v.extractedData === null || plain(v.extractedData));
  return ok ? (v as unknown as WidgetCallView) : null;
}

/** A refusal (wire.ts widgetError), or null. */
export function asWidgetError(value: unknown): WidgetError | null {
  return plain(value) && str(value.error) && str(value.code) ? { error: value.error as string, code: value.code as string } : null;
}

/**
 * The background's half of `page/find` (./find-batch.ts has the shapes and the page's half): the
 * texts a page sent, read with libphonenumber-js, answered as rows.
 */
import { findPhoneNumbers, parseTelHref } from './find';
import type { FindAnswer, FindItem, FindRequest, FoundNumber, FoundRow } from './find-batch';

export function findItems(request: FindRequest): FindItem[] {
  const tels = new Set(request.tels ?? []);
  return request.texts.map((text, i) => ({
    text,
    countries: (request.countries[i] ?? '').split(',').map((c) => c || null),
    label: request.labels[i] ?? '',
    ...(tels.has(i) ? { tel: true } : {}),
  }));
}

/** A tel: href's number as an answer's one number (offsets 0: a link has no text to place). */
function telNumber(href: string, country: string | null): FoundNumber[] {
  const parsed = parseTelHref(href, country ?? undefined);
  return parsed ? [{ raw: parsed.raw, e164: parsed.e164, start: 0, end: 0, ...(parsed.country ? { country: parsed.country } : {}), ...(parsed.ext ? { ext: parsed.ext } : {}), valid: parsed.valid }] : [];
}

export function findBatch(items: readonly FindItem[]): FindAnswer[] {
  return items.map((item) =>
    item.tel ? [telNumber(item.text, item.countries[0] ?? null)] : item.countries.map((country) => findPhoneNumbers(item.text, { defaultCountry: country ?? undefined, label: item.label })),
  );
}

/** One item's answers as rows (text `i` of its request). */
function rowsOf(i: number, perCountry: FindAnswer, rows: FoundRow[]): void {
  perCountry.forEach((found, c) => {
    for (const m of found) {
      const row: FoundRow = [i, c, m.start, m.end, m.e164, m.raw, m.country ?? '', m.ext ?? ''];
      rows.push(m.valid === undefined ? row : [...row, m.valid ? 1 : 0]);
    }
  });
}

/** The background's answer to a request: every number found, as rows. */
export function findRows(request: FindRequest): FoundRow[] {
  const rows: FoundRow[] = [];
  findBatch(findItems(request)).forEach((perCountry, i) => rowsOf(i, perCountry, rows));
  return rows;
}

/** How long the background reads a page's texts before it lets other messages in. */
export const READ_SLICE_MS = 8;

/**
 * findRows, text by text, pausing (`pause`: a new task) whenever `sliceMs` have passed: a page's
 * request never holds the background for longer than its longest text, so Stop and Confirm are
 * answered in between.
 */
export async function findRowsPaced(request: FindRequest, pause: () => Promise<void>, now: () => number = () => performance.now(), sliceMs = READ_SLICE_MS): Promise<FoundRow[]> {
  const rows: FoundRow[] = [];
  let began = now();
  const items = findItems(request);
  for (let i = 0; i < items.length; i++) {
    if (now() - began >= sliceMs) {
      await pause();
      began = now();
    }
    rowsOf(i, findBatch([items[i]!])[0]!, rows);
  }
  return rows;
}

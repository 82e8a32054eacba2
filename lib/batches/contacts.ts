/**
 * The contact list of a new batch, checked row by row before anything is sent: every row needs a
 * `contact_number` that parses to E.164 (national numbers with the default country), no number twice,
 * and every other column becomes a prompt variable. Pure: the number parser is passed in (the UI
 * and the background both use lib/phone/normalize.ts parsePhoneInput), so the rules are tested
 * with plain values.
 */
import { csvField, validateVariables } from '../calls/csv';
import { t } from '../i18n';
import type { PhoneInputResult } from '../phone/normalize';
import { readCsv, type Delimiter } from './csv-read';

/** The largest file the side panel reads: far above a day's calls, small enough to check at once. */
export const MAX_CSV_BYTES = 2_000_000;
/** The most contacts one batch takes here; a longer list is split into several batches. */
export const MAX_CONTACTS = 10_000;

export type ParseNumber = (text: string, country: string) => PhoneInputResult;

export interface ContactRow {
  /** Line of the file where the row starts (1 is the header). */
  line: number;
  /** contact_number as written in the file. */
  written: string;
  /** The number in E.164, when it parsed. */
  e164: string | null;
  /** The other columns of the row, by header name: the prompt's variables. */
  variables: Record<string, string>;
  /** Why the row cannot be sent; empty when it is good. */
  problems: string[];
}

export interface ContactsPreview {
  /** Why the file as a whole cannot be used (no header, no contact_number column…), or null. */
  fileProblem: string | null;
  delimiter: Delimiter;
  /** The variable names (every column but contact_number), in file order. */
  variables: string[];
  /** Every row that holds something (empty rows are listed in `emptyLines`). */
  rows: ContactRow[];
  /** Lines with no value at all: left out, not an error. */
  emptyLines: number[];
  good: number;
  bad: number;
}

const isBlank = (cells: string[]) => cells.every((c) => c.trim() === '');

function emptyPreview(delimiter: Delimiter, fileProblem: string): ContactsPreview {
  return { fileProblem, delimiter, variables: [], rows: [], emptyLines: [], good: 0, bad: 0 };
}

/** Column positions of the header: contact_number, the variables, and nameless empty columns to ignore. */
function readHeader(header: string[], body: string[][]): { contact: number; variables: Array<{ name: string; at: number }> } | string {
  const names = header.map((h) => h.trim());
  const contact = names.findIndex((n) => n.toLowerCase() === 'contact_number');
  if (contact < 0) {
    const looksLikeNumber = names.some((n) => /^\+?[\d\s().-]{6,}$/.test(n));
    if (looksLikeNumber) return t('batches_headerIsNumber');
    const shown = names.filter(Boolean).slice(0, 8).join(', ');
    return shown ? t('batches_headerNoContactColumnHas', shown) : t('batches_headerNoContactColumn');
  }
  const variables: Array<{ name: string; at: number }> = [];
  const seen = new Map<string, number>();
  for (let at = 0; at < names.length; at++) {
    if (at === contact) continue;
    const name = names[at]!;
    if (name === '') {
      // Spreadsheets export trailing empty columns as extra delimiters: harmless while they stay empty.
      const used = body.findIndex((cells) => (cells[at] ?? '').trim() !== '');
      if (used >= 0) return t('batches_columnWithoutName', String(at + 1));
      continue;
    }
    const key = name.toLowerCase();
    if (key === 'contact_number') return t('batches_headerContactTwice');
    if (seen.has(key)) return t('batches_headerColumnTwice', name, String(seen.get(key)! + 1), String(at + 1));
    seen.set(key, at);
    const problem = validateVariables({ [name]: '' })[0];
    if (problem) return t('batches_renameColumn', problem);
    variables.push({ name, at });
  }
  return { contact, variables };
}

/** `locale` formats the counts in messages (the browser's language in the UI; en-US otherwise). */
export function previewContacts(text: string, options: { country: string; parseNumber: ParseNumber; locale?: string }): ContactsPreview {
  const count = (n: number) => new Intl.NumberFormat(options.locale ?? 'en-US').format(n);
  const megabytes = (n: number) => new Intl.NumberFormat(options.locale ?? 'en-US', { style: 'unit', unit: 'megabyte' }).format(n);
  if (text.length > MAX_CSV_BYTES) return emptyPreview(',', t('batches_fileOverSize', megabytes(MAX_CSV_BYTES / 1_000_000)));
  const { delimiter, records, unclosedQuoteLine } = readCsv(text);
  if (text.includes('\uFFFD')) {
    // What a browser makes of bytes that are not UTF-8 (Excel's plain "CSV" is Windows-1252): the service needs UTF-8.
    return emptyPreview(delimiter, t('batches_notUtf8'));
  }
  if (unclosedQuoteLine !== null) {
    return emptyPreview(delimiter, t('batches_unclosedQuote', String(unclosedQuoteLine)));
  }
  const headerAt = records.findIndex((r) => !isBlank(r.cells));
  if (headerAt < 0) return emptyPreview(delimiter, t('batches_fileEmpty'));
  const header = records[headerAt]!.cells;
  const body = records.slice(headerAt + 1);
  const columns = readHeader(
    header,
    body.map((r) => r.cells),
  );
  if (typeof columns === 'string') return emptyPreview(delimiter, columns);

  const rows: ContactRow[] = [];
  const emptyLines: number[] = [];
  const firstLineOf = new Map<string, number>();
  for (const record of body) {
    if (isBlank(record.cells)) {
      emptyLines.push(record.line);
      continue;
    }
    const problems: string[] = [];
    const extra = record.cells.slice(header.length).filter((c) => c.trim() !== '');
    if (extra.length) {
      problems.push(
        t('batches_rowTooManyValues', count(record.cells.length), count(header.length)),
      );
    }
    const written = (record.cells[columns.contact] ?? '').trim();
    const variables = Object.fromEntries(columns.variables.map(({ name, at }) => [name, (record.cells[at] ?? '').trim()]));
    let e164: string | null = null;
    if (written === '') problems.push(t('batches_rowNumberEmpty'));
    else {
      const parsed = options.parseNumber(written, options.country);
      if (!parsed.ok) problems.push(t('batches_rowNumberProblem', written, parsed.error));
      else {
        e164 = parsed.e164;
        const first = firstLineOf.get(e164);
        if (first !== undefined) problems.push(t('batches_rowSameNumber', String(first), e164));
        else firstLineOf.set(e164, record.line);
      }
    }
    problems.push(...validateVariables(variables));
    rows.push({ line: record.line, written, e164, variables, problems });
  }
  if (rows.length === 0) return { ...emptyPreview(delimiter, t('batches_fileNoContacts')), emptyLines };
  if (rows.length > MAX_CONTACTS) {
    return emptyPreview(delimiter, t('batches_tooManyContacts', count(rows.length), count(MAX_CONTACTS)));
  }
  const bad = rows.filter((r) => r.problems.length > 0).length;
  return {
    fileProblem: null,
    delimiter,
    variables: columns.variables.map((v) => v.name),
    rows,
    emptyLines,
    good: rows.length - bad,
    bad,
  };
}

/** True when the preview can be sent as it is: a usable file whose every row is good. */
export const readyToSend = (preview: ContactsPreview): boolean => preview.fileProblem === null && preview.bad === 0 && preview.good > 0;

/**
 * The CSV that is sent: comma-separated, `contact_number` in E.164 first, then the variables, LF
 * line ends, no empty rows. Refuses a preview that is not ready (no row is ever dropped silently).
 */
export function cleanedCsv(preview: ContactsPreview): string {
  if (!readyToSend(preview)) throw new Error(t('batches_stillHasProblems'));
  const lines = [['contact_number', ...preview.variables].map(csvField).join(',')];
  for (const row of preview.rows) lines.push([row.e164!, ...preview.variables.map((v) => row.variables[v] ?? '')].map(csvField).join(','));
  return `${lines.join('\n')}\n`;
}

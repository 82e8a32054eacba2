/**
 * The service reads a batch's CSV with commas as the delimiter (RFC 4180 quoting, CRLF, BOM). The
 * reading itself is the extension's own reader (lib/batches/csv-read.ts): one CSV rule in one place.
 */
import { readCsv } from '../lib/batches/csv-read';

export function parseCsv(text: string): string[][] {
  // Blank lines carry no contact.
  return readCsv(text, ',').records.map((r) => r.cells).filter((cells) => cells.some((cell) => cell.trim() !== ''));
}

/** Header + rows as records keyed by the trimmed header names. */
export function csvRecords(text: string): { header: string[]; records: Array<Record<string, string>> } {
  const [head, ...body] = parseCsv(text);
  const header = (head ?? []).map((h) => h.trim());
  const records = body.map((cells) => Object.fromEntries(header.map((name, i) => [name, (cells[i] ?? '').trim()])));
  return { header, records };
}

/**
 * Reads CSV text as spreadsheets export it: RFC 4180 quoting (commas, doubled quotes and line breaks
 * inside quotes), a UTF-8 byte-order mark, CRLF or LF line ends, and the delimiter Excel uses in
 * locales whose decimal mark is a comma (`;`) or a tab-separated export. Pure: text in, rows out.
 */

export type Delimiter = ',' | ';' | '\t';

export interface CsvLine {
  /** 1-based line number in the file where this record starts (a quoted line break spans lines). */
  line: number;
  cells: string[];
}

export interface CsvText {
  delimiter: Delimiter;
  records: CsvLine[];
  /** A quote was opened and never closed: everything after it was read as one field. */
  unclosedQuoteLine: number | null;
}

/** The delimiter of the header line: the most frequent of `,` `;` tab outside quotes (comma on a tie). */
export function detectDelimiter(text: string): Delimiter {
  const counts: Record<Delimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  let best: Delimiter = ',';
  for (const d of [';', '\t'] as const) if (counts[d] > counts[best]) best = d;
  return best;
}

/** Excel writes (and honours) a first line `sep=;` naming the delimiter. */
const SEP_LINE = /^sep=([,;\t])[ \t]*(?:\r\n|\n|\r|$)/i;

export function readCsv(input: string, delimiter?: Delimiter): CsvText {
  let src = input.replace(/^\uFEFF/, '');
  let line = 1;
  const sep = SEP_LINE.exec(src);
  if (sep) {
    delimiter ??= sep[1] as Delimiter;
    src = src.slice(sep[0].length);
    line = 2;
  }
  delimiter ??= detectDelimiter(src);
  const records: CsvLine[] = [];
  let cells: string[] = [];
  let field = '';
  let quoted = false;
  let quoteLine = 0;
  let recordLine = line;
  const endRecord = () => {
    cells.push(field);
    records.push({ line: recordLine, cells });
    cells = [];
    field = '';
  };
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n' || (ch === '\r' && src[i + 1] !== '\n')) line++;
        field += ch;
      }
    } else if (ch === '"' && field.trim() === '') {
      // Spaces before an opening quote (`a, "b,c"`) are dropped, as spreadsheets do.
      field = '';
      quoted = true;
      quoteLine = line;
    } else if (ch === delimiter) {
      cells.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else field += ch;
  }
  if (field !== '' || cells.length > 0 || quoted) endRecord();
  return { delimiter, records, unclosedQuoteLine: quoted ? quoteLine : null };
}

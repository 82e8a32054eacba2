/** Minimal RFC 4180 CSV reader (quotes, doubled quotes, CRLF, BOM): enough for contact lists. */
export function parseCsv(text: string): string[][] {
  const src = text.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  // Blank lines carry no contact.
  return rows.filter((r) => r.some((cell) => cell.trim() !== ''));
}

/** Header + rows as records keyed by the trimmed header names. */
export function csvRecords(text: string): { header: string[]; records: Array<Record<string, string>> } {
  const [head, ...body] = parseCsv(text);
  const header = (head ?? []).map((h) => h.trim());
  const records = body.map((cells) => Object.fromEntries(header.map((name, i) => [name, (cells[i] ?? '').trim()])));
  return { header, records };
}

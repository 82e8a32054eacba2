// The executions CSV: a header, one line per execution, values as the service gave them, quoted and made inert.
import { describe, expect, it } from 'vitest';
import { EXECUTION_CSV_COLUMNS, executionsCsv, executionsCsvName, spreadsheetSafe } from '../../../lib/executions/csv';
import { readCsv } from '../../../lib/batches/csv-read';

const base = {
  id: 'e1',
  status: 'completed',
  created_at: '2026-11-22T10:00:00Z',
  total_cost: 12.5,
  batch_id: '0123abcd0123abcd0123abcd0123abcd',
  conversation_duration: 95,
  telephony_data: { to_number: '+14155550123', from_number: '+14155550100' },
} as never;

/** The file as a spreadsheet reads it (the project's one CSV reader). */
const parseCsv = (text: string): string[][] => readCsv(text, ',').records.map((r) => r.cells);

describe('executionsCsv', () => {
  it('writes the header and one row per execution in column order', () => {
    const rows = parseCsv(executionsCsv([base, { ...(base as object), id: 'e2', status: 'busy', conversation_duration: null, total_cost: 0, batch_id: null } as never]));
    expect(rows[0]).toEqual([...EXECUTION_CSV_COLUMNS]);
    expect(rows[1]).toEqual(['e1', '2026-11-22T10:00:00Z', '+14155550123', '+14155550100', 'completed', '95', '12.5', '0123abcd0123abcd0123abcd0123abcd']);
    expect(rows[2]).toEqual(['e2', '2026-11-22T10:00:00Z', '+14155550123', '+14155550100', 'busy', '', '0', '']);
    expect(rows).toHaveLength(3);
  });

  it('reads the spec spelling of the duration and leaves out missing telephony data', () => {
    const rows = parseCsv(executionsCsv([{ id: 'e3', status: 'queued', conversation_time: 7, telephony_data: null } as never]));
    expect(rows[1]).toEqual(['e3', '', '', '', 'queued', '7', '', '']);
  });

  it('quotes commas, quotes and line breaks, and keeps them as text', () => {
    const text = executionsCsv([{ ...(base as object), status: 'odd, "status"\nhere' } as never]);
    expect(parseCsv(text)[1]![4]).toBe('odd, "status"\nhere');
  });

  it('an empty list is the header alone', () => {
    expect(executionsCsv([])).toBe(`${EXECUTION_CSV_COLUMNS.join(',')}\r\n`);
  });
});

describe('spreadsheetSafe', () => {
  it.each([
    ['=HYPERLINK("x")', "'=HYPERLINK(\"x\")"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['+cmd', "'+cmd"],
    ['-x', "'-x"],
    ['+14155550123', '+14155550123'],
    ['-3.5', '-3.5'],
    ['completed', 'completed'],
  ])('%s → %s', (input, output) => expect(spreadsheetSafe(input)).toBe(output));
});

describe('executionsCsvName', () => {
  it('names the agent and the days, with nothing a file system refuses', () => {
    expect(executionsCsvName('Sales / East: "v2"', '2026-11-17', '2026-11-23')).toBe('executions-Sales_East_v2_-2026-11-17-to-2026-11-23.csv');
  });
});

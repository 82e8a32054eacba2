/** The new batch's contact list is checked row by row before anything is sent. */
import { describe, expect, it } from 'vitest';
import { cleanedCsv, MAX_CONTACTS, previewContacts, readyToSend } from '../../../lib/batches/contacts';
import { readCsv } from '../../../lib/batches/csv-read';
import { parsePhoneInput } from '../../../lib/phone/normalize';

const preview = (text: string, country = 'US') => previewContacts(text, { country, parseNumber: parsePhoneInput });
const bad = (text: string, country = 'US') =>
  preview(text, country)
    .rows.filter((r) => r.problems.length)
    .map((r) => ({ line: r.line, problems: r.problems.join(' ') }));

describe('reading CSV as spreadsheets export it', () => {
  it('keeps commas, quotes and line breaks inside quoted fields', () => {
    const { records } = readCsv('contact_number,note\n+14155552671,"Smith, John"\n+14155552672,"say ""hi"""\n+14155552673,"two\nlines"\n');
    expect(records.map((r) => r.cells)).toEqual([
      ['contact_number', 'note'],
      ['+14155552671', 'Smith, John'],
      ['+14155552672', 'say "hi"'],
      ['+14155552673', 'two\nlines'],
    ]);
  });
  it('numbers records by the line they start on, after a quoted line break', () => {
    const { records } = readCsv('a,b\n1,"x\ny"\n2,z\n');
    expect(records.map((r) => r.line)).toEqual([1, 2, 4]);
  });
  it('reads a BOM, CRLF line ends and semicolons (Excel in comma-decimal locales)', () => {
    const p = preview('\uFEFFcontact_number;first_name;amount\r\n+14155552671;Ana;"1,50"\r\n');
    expect(p.fileProblem).toBeNull();
    expect(p.delimiter).toBe(';');
    expect(p.variables).toEqual(['first_name', 'amount']);
    expect(p.rows[0]).toMatchObject({ e164: '+14155552671', variables: { first_name: 'Ana', amount: '1,50' } });
  });
  it('reads tab-separated exports', () => {
    expect(preview('contact_number\tname\n+14155552671\tAna\n').rows[0]!.variables).toEqual({ name: 'Ana' });
  });
  it("follows Excel's sep= line, and counts lines from the file's first", () => {
    const p = preview('sep=;\r\ncontact_number;name\r\n+14155552671;Ana\r\nnope;Bo\r\n');
    expect(p).toMatchObject({ fileProblem: null, delimiter: ';', variables: ['name'] });
    expect(p.rows.map((r) => [r.line, r.problems.length > 0])).toEqual([
      [3, false],
      [4, true],
    ]);
  });
  it('refuses a file that is not UTF-8 (Excel\'s plain CSV), saying how to save it', () => {
    // What TextDecoder (File.text()) makes of Windows-1252 "é" in "José".
    expect(preview('contact_number,name\n+14155552671,Jos\uFFFD\n').fileProblem).toMatch(/not saved as UTF-8.+CSV UTF-8/);
  });
  it('refuses a quote that never closes, naming its line', () => {
    expect(preview('contact_number,name\n+14155552671,"Ana\n+14155552672,Bo\n').fileProblem).toMatch(/line 2 is never closed/);
  });
});

describe('the contact list preview', () => {
  it('turns national numbers into E.164 with the default country', () => {
    const p = preview('contact_number\n(415) 555-2671\n020 7946 0958\n', 'GB');
    expect(p.rows.map((r) => r.e164)).toEqual([null, '+442079460958']);
    expect(bad('contact_number\n(415) 555-2671\n', 'US')).toEqual([]);
    expect(preview('contact_number\n(415) 555-2671\n', 'US').rows[0]!.e164).toBe('+14155552671');
  });
  it('finds the same number written in different formats, and says which line had it first', () => {
    expect(bad('contact_number\n+1 415 555 2671\n(415) 555-2671\n4155552671\n+14155552672\n')).toEqual([
      { line: 3, problems: 'The same number as line 2 (+14155552671).' },
      { line: 4, problems: 'The same number as line 2 (+14155552671).' },
    ]);
  });
  it('gives a reason on every bad row: empty number, not a number, too short', () => {
    const rows = bad('contact_number,name\n,Ana\nhello,Bo\n+1415,Cy\n+14155552671,Di\n');
    expect(rows.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(rows[0]!.problems).toMatch(/contact_number is empty/);
    expect(rows[1]!.problems).toMatch(/contact_number "hello": .+/);
    expect(rows[2]!.problems).toMatch(/contact_number "\+1415": .+/);
    expect(preview('contact_number,name\n,Ana\nhello,Bo\n+1415,Cy\n+14155552671,Di\n')).toMatchObject({ good: 1, bad: 3 });
  });
  it('leaves blank lines out without calling them errors', () => {
    const p = preview('contact_number,name\n\n+14155552671,Ana\n,\n   \n+14155552672,Bo\n\n');
    expect(p).toMatchObject({ fileProblem: null, good: 2, bad: 0, emptyLines: [2, 4, 5, 7] });
  });
  it('refuses a file without a header, or whose header lacks contact_number', () => {
    expect(preview('+14155552671,Ana\n+14155552672,Bo\n').fileProblem).toMatch(/must be a header.+holds a phone number/);
    expect(preview('phone,name\n+14155552671,Ana\n').fileProblem).toMatch(/no contact_number column; it has: phone, name/);
    expect(preview('').fileProblem).toMatch(/empty/);
    expect(preview('contact_number,name\n\n').fileProblem).toMatch(/no contacts/);
  });
  it('turns extra columns into variables, and refuses names a prompt cannot use', () => {
    expect(preview('name,contact_number,city,plan\n Ana ,+14155552671,Paris,pro\n').rows[0]!.variables).toEqual({ name: 'Ana', city: 'Paris', plan: 'pro' });
    expect(preview('contact_number,first name\n+14155552671,Ana\n').fileProblem).toMatch(/"first name" must start with a letter.+Rename the column/);
    expect(preview('contact_number,name,Name\n+14155552671,a,b\n').fileProblem).toMatch(/"Name" twice \(columns 2 and 3\)/);
  });
  it('ignores nameless trailing columns while they are empty, refuses them when they hold values', () => {
    expect(preview('contact_number,name,,\n+14155552671,Ana,,\n').fileProblem).toBeNull();
    expect(preview('contact_number,name,\n+14155552671,Ana,x\n').fileProblem).toMatch(/Column 3 has no name/);
  });
  it('marks a row with more values than the header (an unquoted comma)', () => {
    expect(bad('contact_number,name\n+14155552671,Smith, John\n')[0]!.problems).toMatch(/3 values but the header names 2 columns.+double quotes/);
  });
  it('refuses more contacts than a batch takes', () => {
    const rows = Array.from({ length: MAX_CONTACTS + 1 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`);
    expect(preview(`contact_number\n${rows.join('\n')}\n`).fileProblem).toMatch(/10,001 contacts; a batch takes at most 10,000/);
  });
});

describe('the CSV that is sent', () => {
  it('has E.164 numbers first, the variables after, quoted where needed, and no blank lines', () => {
    const p = preview('\uFEFFname;contact_number\r\n"Smith, John";(415) 555-2671\r\n\r\nBo;415 555 2672\r\n');
    expect(readyToSend(p)).toBe(true);
    expect(cleanedCsv(p)).toBe('contact_number,name\n+14155552671,"Smith, John"\n+14155552672,Bo\n');
  });
  it('is never built while a row is bad', () => {
    const p = preview('contact_number\n+14155552671\nnope\n');
    expect(readyToSend(p)).toBe(false);
    expect(() => cleanedCsv(p)).toThrow(/still has problems/);
  });
  it('reads back as the same contacts', () => {
    const p = preview('contact_number,note\n+14155552671,"a ""quoted"", text"\n');
    const again = preview(cleanedCsv(p));
    expect(again.rows.map((r) => [r.e164, r.variables])).toEqual([['+14155552671', { note: 'a "quoted", text' }]]);
  });
});

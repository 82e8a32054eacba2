import { describe, expect, it } from 'vitest';
import { MAX_PDF_BYTES, checkPdf, checkUrl, hasPdfMagic } from '../../../lib/knowledgebases/checks';

const bytes = (text: string) => new TextEncoder().encode(text);
const PDF_HEAD = bytes('%PDF-1.7\n');

describe('checkPdf: type by name and magic bytes, size by the service limit', () => {
  it('accepts a .pdf whose bytes start with %PDF-, whatever the case of the extension', () => {
    expect(checkPdf({ name: 'faq.pdf', size: 1200, head: PDF_HEAD })).toEqual({ ok: true });
    expect(checkPdf({ name: 'Price List.PDF', size: 1200, head: PDF_HEAD })).toEqual({ ok: true });
  });

  it('accepts exactly 20 MB and refuses one byte more, saying both sizes', () => {
    expect(checkPdf({ name: 'big.pdf', size: MAX_PDF_BYTES, head: PDF_HEAD }).ok).toBe(true);
    const over = checkPdf({ name: 'big.pdf', size: MAX_PDF_BYTES + 1, head: PDF_HEAD }, 'en-US');
    expect(over.ok).toBe(false);
    expect(!over.ok && over.message).toMatch(/big\.pdf.*20 MB.*at most 20 MB/);
    const huge = checkPdf({ name: 'huge.pdf', size: 55 * 1024 * 1024, head: PDF_HEAD }, 'en-US');
    expect(!huge.ok && huge.message).toMatch(/is 55 MB/);
  });

  it('refuses an empty file', () => {
    const empty = checkPdf({ name: 'empty.pdf', size: 0, head: new Uint8Array() });
    expect(!empty.ok && empty.message).toMatch(/empty/);
  });

  it.each([
    ['a text file renamed .pdf', 'notes.pdf', 'hello world'],
    ['a PNG renamed .pdf', 'scan.pdf', '\x89PNG\r\n\x1a\n'],
    ['a ZIP (docx) renamed .pdf', 'doc.pdf', 'PK\x03\x04'],
    ['a magic almost right', 'x.pdf', '%PDF'],
    ['a magic in lower case', 'x.pdf', '%pdf-1.4'],
    ['a magic after leading spaces', 'x.pdf', ' %PDF-1.4'],
  ])('refuses %s by its bytes', (_label, name, head) => {
    const result = checkPdf({ name, size: 100, head: bytes(head) });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/does not start like a PDF/);
  });

  it.each([
    ['a .txt', 'notes.txt'],
    ['no extension', 'report'],
    ['.pdf not at the end', 'report.pdf.exe'],
    ['a .pdfx', 'a.pdfx'],
  ])('refuses %s by its name even with PDF bytes', (_label, name) => {
    const result = checkPdf({ name, size: 100, head: PDF_HEAD });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/not a PDF/);
  });

  it('reads the magic from the first bytes only', () => {
    expect(hasPdfMagic(bytes('%PDF-'))).toBe(true);
    expect(hasPdfMagic(bytes('x%PDF-'))).toBe(false);
    expect(hasPdfMagic(new Uint8Array([0x25, 0x50, 0x44]))).toBe(false);
  });
});

describe('checkUrl', () => {
  it('accepts http and https addresses and trims them', () => {
    expect(checkUrl(' https://example.com/faq ')).toEqual({ ok: true, url: 'https://example.com/faq' });
    expect(checkUrl('http://docs.example.org:8080/a?b=c#d')).toMatchObject({ ok: true });
  });

  it.each([
    ['empty', '', /Enter the address/],
    ['only spaces', '   ', /Enter the address/],
    ['no scheme', 'example.com/faq', /not a web address/],
    ['ftp', 'ftp://example.com/file.pdf', /Only http and https/],
    ['javascript', 'javascript:alert(1)', /Only http and https/],
    ['a file URL', 'file:///etc/passwd', /Only http and https/],
    ['credentials', 'https://user:secret@example.com/', /user name or password/],
    ['too long', `https://example.com/${'a'.repeat(2100)}`, /longer than 2048/],
  ])('refuses %s', (_label, text, message) => {
    const result = checkUrl(text);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });
});

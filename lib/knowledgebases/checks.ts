/**
 * What the Knowledgebases section accepts before anything is uploaded: a PDF (by its `.pdf` name and
 * its `%PDF-` magic bytes, never by the browser's guessed MIME type) of at most 20 MB, which is the
 * service's own limit, or an http(s) URL. The side panel checks first so nothing is sent in vain;
 * the background checks the stored file again before it uploads.
 */

import { t } from '../i18n';

/** The service's limit for an ingested PDF (service facts: `file` ≤ 20 MB). */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;
/** How many leading bytes the type check reads. */
export const PDF_MAGIC = '%PDF-';
export const MAX_URL_LENGTH = 2048;

export type Check = { ok: true } | { ok: false; message: string };

const refuse = (message: string): Check => ({ ok: false, message });

/** "20 MB": sizes in the words people use (1 MB = 1024 × 1024 bytes, as the limit is stated). */
export function formatMegabytes(bytes: number, locale?: string): string {
  const mb = bytes / (1024 * 1024);
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: mb < 10 ? 1 : 0 }).format(mb);
}

/** True when `head` (the file's first bytes) starts with `%PDF-`. */
export function hasPdfMagic(head: Uint8Array): boolean {
  if (head.byteLength < PDF_MAGIC.length) return false;
  for (let i = 0; i < PDF_MAGIC.length; i++) if (head[i] !== PDF_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** Checks a chosen file from its name, size and first bytes (at least 5). */
export function checkPdf(file: { name: string; size: number; head: Uint8Array }, locale?: string): Check {
  if (!/\.pdf$/i.test(file.name.trim())) return refuse(t('kb_notPdfName', file.name));
  if (file.size === 0) return refuse(t('kb_empty', file.name));
  if (file.size > MAX_PDF_BYTES) {
    return refuse(t('kb_tooLarge', file.name, formatMegabytes(file.size, locale), formatMegabytes(MAX_PDF_BYTES, locale)));
  }
  if (!hasPdfMagic(file.head)) return refuse(t('kb_notPdfMagic', file.name));
  return { ok: true };
}

/** Checks a typed URL: absolute http(s) with a host, no credentials in it. Answers the trimmed URL. */
export function checkUrl(text: string): Check & { url?: string } {
  const trimmed = text.trim();
  if (!trimmed) return refuse(t('kb_enterUrl'));
  if (trimmed.length > MAX_URL_LENGTH) return refuse(t('kb_urlTooLong', MAX_URL_LENGTH));
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return refuse(t('kb_notUrl'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse(t('kb_onlyHttp'));
  if (!url.hostname) return refuse(t('kb_noHost'));
  // A user name or password in the URL would be handed to the service in plain text.
  if (url.username || url.password) return refuse(t('kb_removeCredentials'));
  return { ok: true, url: trimmed };
}

/**
 * A contact list travels from the side panel to the background in parts: one runtime message is
 * capped at 64 KB (MAX_MESSAGE_BYTES, measured as JSON text), and a list may be up to 2 MB. The UI
 * splits the cleaned CSV; the background stages the parts per upload id and takes the whole text
 * once every part arrived. Pure: the clock is passed in.
 */
import { t } from '../i18n';
import { uiLocale } from '../locale';
import { MAX_CSV_BYTES } from './contacts';

/** "2 MB" in the browser's locale. */
const sizeLimit = () => new Intl.NumberFormat(uiLocale(), { style: 'unit', unit: 'megabyte' }).format(MAX_CSV_BYTES / 1_000_000);

/**
 * Characters per part. JSON writes a control character as six (`\u0001`), so 10,000 characters
 * stay under 60,000 in the worst case, leaving room for the message's other fields.
 */
export const PART_CHARS = 10_000;
export const MAX_PARTS = Math.ceil(MAX_CSV_BYTES / PART_CHARS);
/** A staged upload nobody finished is forgotten after this long. */
export const STAGED_TTL_MS = 10 * 60_000;
const MAX_STAGED_UPLOADS = 4;

export class UploadError extends Error {
  override name = 'UploadError';
}

export function splitParts(text: string, size = PART_CHARS): string[] {
  const parts: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(at + size, text.length);
    // Never split a surrogate pair: each part must be valid text on its own.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts.length ? parts : [''];
}

interface Staged {
  parts: (string | undefined)[];
  chars: number;
  touchedAt: number;
}

export class UploadStaging {
  private readonly uploads = new Map<string, Staged>();

  constructor(private readonly now: () => number = Date.now) {}

  private sweep(): void {
    const limit = this.now() - STAGED_TTL_MS;
    for (const [id, staged] of this.uploads) if (staged.touchedAt < limit) this.uploads.delete(id);
  }

  /** Keeps one part; answers how many of the upload's parts have arrived. */
  put(uploadId: string, index: number, total: number, text: string): { received: number; total: number } {
    this.sweep();
    if (total < 1 || total > MAX_PARTS) throw new UploadError(t('batches_uploadTooLarge', sizeLimit()));
    if (index < 0 || index >= total) throw new UploadError(t('batches_uploadPartOutOfOrder'));
    let staged = this.uploads.get(uploadId);
    if (staged && staged.parts.length !== total) throw new UploadError(t('batches_uploadPartsMismatch'));
    if (!staged) {
      if (this.uploads.size >= MAX_STAGED_UPLOADS) {
        const oldest = [...this.uploads.entries()].sort((a, b) => a[1].touchedAt - b[1].touchedAt)[0]!;
        this.uploads.delete(oldest[0]);
      }
      staged = { parts: new Array<string | undefined>(total).fill(undefined), chars: 0, touchedAt: this.now() };
      this.uploads.set(uploadId, staged);
    }
    staged.chars += text.length - (staged.parts[index]?.length ?? 0);
    if (staged.chars > MAX_CSV_BYTES) {
      this.uploads.delete(uploadId);
      throw new UploadError(t('batches_uploadTooLarge', sizeLimit()));
    }
    staged.parts[index] = text;
    staged.touchedAt = this.now();
    return { received: staged.parts.filter((p) => p !== undefined).length, total };
  }

  /** The whole text of a complete upload, forgotten once taken. */
  take(uploadId: string): string {
    this.sweep();
    const staged = this.uploads.get(uploadId);
    if (!staged) throw new UploadError(t('batches_uploadNotArrived'));
    const missing = staged.parts.findIndex((p) => p === undefined);
    if (missing >= 0) throw new UploadError(t('batches_uploadPartMissing'));
    this.uploads.delete(uploadId);
    return staged.parts.join('');
  }
}

/**
 * Builds `FormData` bodies. The multipart Content-Type (with its boundary) is written by `fetch`
 * from the FormData itself: never set it by hand.
 */

export interface FilePart {
  blob: Blob;
  fileName: string;
}

export type FormValue = string | number | boolean | FilePart | readonly (string | number | boolean)[] | null | undefined;

function isFilePart(value: unknown): value is FilePart {
  return !!value && typeof value === 'object' && 'blob' in value && 'fileName' in value;
}

/** Appends each field; arrays repeat the field once per value; null/undefined fields are left out. */
export function toFormData(fields: Record<string, FormValue>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (isFilePart(value)) form.append(name, value.blob, value.fileName);
    else if (Array.isArray(value)) for (const item of value) form.append(name, String(item));
    else form.append(name, String(value));
  }
  return form;
}

/** A CSV text as an uploadable file part (UTF-8, `text/csv`). */
export function csvFile(csv: string, fileName = 'contacts.csv'): FilePart {
  return { blob: new Blob([csv], { type: 'text/csv' }), fileName };
}

/** Bytes as an uploadable file part (a PDF by default). */
export function bytesFile(bytes: Uint8Array, fileName: string, type = 'application/pdf'): FilePart {
  // Copy into a plain ArrayBuffer-backed view: Blob does not take SharedArrayBuffer views.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return { blob: new Blob([copy], { type }), fileName };
}

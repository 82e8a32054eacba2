/**
 * PDFs on their way to the service. A runtime message is capped at 64 KB, so the side panel keeps the
 * chosen file in the extension origin's IndexedDB (a Blob, stored as it is) and sends only its id; the
 * background takes it out, uploads it and deletes it. Content scripts cannot reach this database.
 * Files left behind (a panel closed mid-way, a background that stopped) are swept after an hour.
 */
import { database, onResult } from '../idb';

const FILES = 'files';
export const uploadsDb = database('kb-uploads', 1, [{ name: FILES }]);

export interface PendingUpload {
  name: string;
  size: number;
  blob: Blob;
  /** When it was stored (ms), for the sweep. */
  at: number;
}

/** Left-behind uploads older than this are deleted. */
export const UPLOAD_TTL_MS = 60 * 60 * 1000;

export async function putUpload(id: string, file: { name: string; blob: Blob }, now = Date.now()): Promise<void> {
  const upload: PendingUpload = { name: file.name, size: file.blob.size, blob: file.blob, at: now };
  await uploadsDb.put(FILES, id, upload);
}

function isUpload(value: unknown): value is PendingUpload {
  const v = value as Partial<PendingUpload> | undefined;
  return !!v && typeof v.name === 'string' && typeof v.size === 'number' && typeof v.at === 'number' && v.blob instanceof Blob;
}

/** Takes an upload out of the store (read and delete in one transaction); undefined when it is not there. */
export function takeUpload(id: string): Promise<PendingUpload | undefined> {
  return uploadsDb.transact<PendingUpload | undefined>([FILES], 'readwrite', (tx, done) => {
    const store = tx.objectStore(FILES);
    onResult(store.get(id), (value) => {
      store.delete(id);
      done(isUpload(value) ? value : undefined);
    });
  });
}

export const removeUpload = (id: string): Promise<void> => uploadsDb.remove(FILES, id);

/** Deletes uploads stored before `now - UPLOAD_TTL_MS`; answers how many. */
export function sweepUploads(now = Date.now()): Promise<number> {
  return uploadsDb.transact<number>([FILES], 'readwrite', (tx, done) => {
    const store = tx.objectStore(FILES);
    onResult(store.getAllKeys(), (keys) =>
      onResult(store.getAll(), (values) => {
        let removed = 0;
        values.forEach((value, i) => {
          const at = (value as Partial<PendingUpload> | undefined)?.at;
          if (typeof at === 'number' && at >= now - UPLOAD_TTL_MS) return;
          store.delete(keys[i]!);
          removed++;
        });
        done(removed);
      }),
    );
  });
}

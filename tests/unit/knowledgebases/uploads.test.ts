import { describe, expect, it } from 'vitest';
import { UPLOAD_TTL_MS, putUpload, sweepUploads, takeUpload } from '../../../lib/knowledgebases/uploads';

describe('pending PDF uploads (IndexedDB)', () => {
  it('keeps a file until the background takes it, once', async () => {
    const blob = new Blob([new Uint8Array(200_000).fill(65)], { type: 'application/pdf' });
    await putUpload('u1', { name: 'big.pdf', blob });
    const taken = await takeUpload('u1');
    expect(taken).toMatchObject({ name: 'big.pdf', size: 200_000 });
    expect((await taken!.blob.arrayBuffer()).byteLength).toBe(200_000);
    expect(await takeUpload('u1')).toBeUndefined();
  });

  it('sweeps files left behind for over an hour, and keeps newer ones', async () => {
    const now = 10 * UPLOAD_TTL_MS;
    await putUpload('old', { name: 'old.pdf', blob: new Blob(['%PDF-']) }, now - UPLOAD_TTL_MS - 1);
    await putUpload('new', { name: 'new.pdf', blob: new Blob(['%PDF-']) }, now - 1000);
    expect(await sweepUploads(now)).toBe(1);
    expect(await takeUpload('old')).toBeUndefined();
    expect(await takeUpload('new')).toMatchObject({ name: 'new.pdf' });
  });
});

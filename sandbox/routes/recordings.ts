/**
 * Presigned recordings, served by the sandbox itself. No API key (like a storage URL); answers in
 * the storage style (XML errors), not the API's JSON, because it is not an API route.
 */
import { checkRecordingSignature, recordingWav, storageError } from '../audio';
import { route, type RouteDef } from '../router';

const xml = (status: number, code: string, message: string) =>
  new Response(storageError(code, message), { status, headers: { 'Content-Type': 'application/xml' } });

export const recordingRoutes: RouteDef[] = [
  route('GET', '/recordings/:file', { public: true, schema: null }, ({ rt, params, url }) => {
    const m = /^([0-9a-f-]{36})\.wav$/i.exec(params.file!);
    if (!m) return xml(404, 'NoSuchKey', 'The specified key does not exist.');
    const id = m[1]!;
    const check = checkRecordingSignature(rt.secret, id, url.searchParams.get('expires') ?? undefined, url.searchParams.get('signature') ?? undefined);
    if (check === 'expired') return xml(403, 'AccessDenied', 'Request has expired');
    if (check === 'invalid') return xml(403, 'AccessDenied', 'Signature does not match');
    const found = rt.store.findExecution(id);
    if (!found?.exec.has_recording) return xml(404, 'NoSuchKey', 'The specified key does not exist.');
    const wav = recordingWav();
    return new Response(wav, {
      status: 200,
      headers: { 'Content-Type': 'audio/wav', 'Content-Length': String(wav.byteLength), 'Cache-Control': 'private, max-age=3600' },
    });
  }),
];

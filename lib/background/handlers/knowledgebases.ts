/** Answers the requests of lib/requests/knowledgebases.ts. */
import { checkPdf, checkUrl } from '../../knowledgebases/checks';
import { sweepUploads, takeUpload } from '../../knowledgebases/uploads';
import type { KnowledgebaseReplies } from '../../requests/knowledgebases';
import { InputError } from '../input-error';
import { currentClient } from '../service';
import type { Handlers } from './types';

export const knowledgebasesHandlers: Handlers<keyof KnowledgebaseReplies> = {
  'knowledgebases/list': async () => (await currentClient()).listKnowledgebases(),

  'knowledgebases/get': async (request) => (await currentClient()).getKnowledgebase(request.ragId),

  'knowledgebases/ingest-url': async (request) => {
    const checked = checkUrl(request.url);
    if (!checked.ok) throw new InputError(checked.message);
    return (await currentClient()).createKnowledgebase({ url: checked.url });
  },

  'knowledgebases/ingest-file': async (request) => {
    // Files a closed panel left behind go first; a failed sweep must not stop this upload.
    await sweepUploads().catch(() => 0);
    const upload = await takeUpload(request.uploadId);
    if (!upload) throw new InputError('The chosen PDF is no longer waiting to be uploaded. Choose the file again.');
    const bytes = new Uint8Array(await upload.blob.arrayBuffer());
    // The panel checked already; the stored file is checked again here, where the upload happens.
    const checked = checkPdf({ name: upload.name, size: bytes.byteLength, head: bytes.subarray(0, 5) });
    if (!checked.ok) throw new InputError(checked.message);
    return (await currentClient()).createKnowledgebase({ file: { name: upload.name, bytes } });
  },

  'knowledgebases/delete': async (request) => {
    await (await currentClient()).deleteKnowledgebase(request.ragId);
    return null;
  },
};

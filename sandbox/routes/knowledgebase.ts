/**
 * Knowledgebases: multipart ingest of a PDF or a URL, then `processing` → `processed`, or `processing` →
 * `error` when the source cannot be read: a PDF cut short (no `%%EOF` trailer, as a truncated upload is)
 * or a URL whose host cannot exist (`.invalid`, RFC 2606). A file that is not a PDF at all is refused at once.
 */
import { randomUUID } from 'node:crypto';
import { actionAck, knowledgebase, knowledgebaseList } from '../../lib/api/schemas';
import { readFields, type Fields } from '../body';
import { badRequest, notFound } from '../errors';
import { route, type RouteDef } from '../router';
import type { Account, KbRec } from '../store';
import { kbWire } from '../wire';
import { isHttpUrl, newestFirst } from './util';

const MAX_PDF_BYTES = 20 * 1024 * 1024;

function getKb(account: Account, id: string): KbRec {
  const kb = account.knowledgebases.get(id);
  if (!kb) throw notFound('Knowledgebase');
  return kb;
}

function intField(fields: Fields, name: string, fallback: number, min: number): number {
  const text = fields.text(name)?.trim();
  if (!text) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw badRequest(`${name} must be an integer of at least ${min}`);
  return n;
}

export const knowledgebaseRoutes: RouteDef[] = [
  route('POST', '/knowledgebase', { schema: knowledgebase }, async ({ c, rt, account }) => {
    const fields = await readFields(c);
    const file = fields.file('file');
    const url = fields.text('url')?.trim() || undefined;
    if (!file && !url) throw badRequest('file or url is required');
    if (file && url) throw badRequest('give either a file or a url, not both');
    const chunkSize = intField(fields, 'chunk_size', 512, 1);
    const topK = intField(fields, 'similarity_top_k', 15, 1);
    const overlapping = intField(fields, 'overlapping', 128, 0);
    let fileName: string;
    let unreadable: string | null = null;
    if (file) {
      if (file.size > MAX_PDF_BYTES) throw badRequest('file is larger than 20 MB');
      const head = new TextDecoder().decode(new Uint8Array(await file.slice(0, 5).arrayBuffer()));
      if (head !== '%PDF-') throw badRequest('file must be a PDF');
      fileName = file.name || 'document.pdf';
      const tail = new TextDecoder().decode(new Uint8Array(await file.slice(Math.max(0, file.size - 1024)).arrayBuffer()));
      if (!tail.includes('%%EOF')) unreadable = 'the PDF could not be read: it ends before its %%EOF trailer';
    } else {
      if (!isHttpUrl(url!)) throw badRequest('url must be a valid http(s) URL');
      fileName = url!;
      if (new URL(url!).hostname.endsWith('.invalid')) unreadable = `the page at ${url} could not be fetched`;
    }
    const now = new Date().toISOString();
    const ragId = randomUUID();
    const kb: KbRec = {
      rag_id: ragId,
      vector_id: `vec_${ragId.replace(/-/g, '').slice(0, 12)}`,
      file_name: fileName,
      source_type: file ? 'pdf' : 'url',
      status: 'processing',
      chunk_size: chunkSize,
      similarity_top_k: topK,
      overlapping,
      language_support: fields.text('language_support')?.trim() || null,
      url: url ?? null,
      created_at: now,
      updated_at: now,
    };
    account.knowledgebases.set(ragId, kb);
    // Ingestion takes a moment live; clients poll until processed.
    rt.timers.after(rt.scaled(3000), () => {
      kb.status = unreadable ? 'error' : 'processed';
      if (unreadable) kb.error_message = unreadable;
      kb.updated_at = new Date().toISOString();
    });
    return { body: { rag_id: kb.rag_id, file_name: kb.file_name, source_type: kb.source_type, status: kb.status } };
  }),
  route('GET', '/knowledgebase/all', { schema: knowledgebaseList }, ({ account }) => ({
    body: [...account.knowledgebases.values()].sort(newestFirst).map(kbWire),
  })),
  route('GET', '/knowledgebase/:rag_id', { schema: knowledgebase }, ({ account, params }) => ({
    body: kbWire(getKb(account, params.rag_id!)),
  })),
  route('DELETE', '/knowledgebase/:rag_id', { schema: actionAck }, ({ account, params }) => {
    getKb(account, params.rag_id!);
    account.knowledgebases.delete(params.rag_id!);
    return { body: { message: 'success', state: 'deleted' } };
  }),
];

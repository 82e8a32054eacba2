/**
 * Requests of the side panel's Knowledgebases section (list, ingest, view, delete). Each is a strict schema: the background
 * parses every payload with the union in lib/messages.ts after checking the sender.
 * A PDF never travels in a message (64 KB cap): the panel stores it in IndexedDB (lib/knowledgebases/uploads.ts)
 * and sends its id.
 */
import type { Knowledgebase } from '../api/schemas/knowledgebase';
import { z } from '../zod';
import { MAX_URL_LENGTH } from '../knowledgebases/checks';
import { id } from './common';

export const knowledgebasesRequests = [
  z.strictObject({ type: z.literal('knowledgebases/list') }),
  z.strictObject({ type: z.literal('knowledgebases/get'), ragId: id }),
  z.strictObject({ type: z.literal('knowledgebases/ingest-url'), url: z.string().min(1).max(MAX_URL_LENGTH) }),
  /** `uploadId`: the key of the PDF the panel stored in the uploads database. */
  z.strictObject({ type: z.literal('knowledgebases/ingest-file'), uploadId: id }),
  z.strictObject({ type: z.literal('knowledgebases/delete'), ragId: id }),
] as const;

/** What each of these requests answers (the `data` of a successful Reply). */
export interface KnowledgebaseReplies {
  'knowledgebases/list': Knowledgebase[];
  'knowledgebases/get': Knowledgebase;
  'knowledgebases/ingest-url': Knowledgebase;
  'knowledgebases/ingest-file': Knowledgebase;
  'knowledgebases/delete': null;
}

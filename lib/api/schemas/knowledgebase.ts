import { z } from '../zod';
import { looseNumber, serviceId, timestamp } from './common';

export const knowledgebase = z.looseObject({
  rag_id: serviceId,
  vector_id: z.string().nullish(),
  file_name: z.string().nullish(),
  source_type: z.string().nullish(),
  status: z.string().nullish(),
  chunk_size: looseNumber.nullish(),
  similarity_top_k: looseNumber.nullish(),
  overlapping: looseNumber.nullish(),
  created_at: timestamp.nullish(),
  updated_at: timestamp.nullish(),
});
export const knowledgebaseList = z.array(knowledgebase);

/** Multipart `POST /knowledgebase`: a PDF (≤ 20 MB) or a URL, not both. */
export const knowledgebaseIngestRequest = z
  .strictObject({
    file: z
      .object({
        name: z.string().min(1),
        bytes: z.instanceof(Uint8Array).refine((b) => b.byteLength <= 20 * 1024 * 1024, 'the PDF is over 20 MB'),
      })
      .optional(),
    url: z.string().url().optional(),
    chunk_size: z.number().int().positive().optional(),
    similarity_top_k: z.number().int().positive().optional(),
    overlapping: z.number().int().nonnegative().optional(),
    language_support: z.string().optional(),
  })
  .refine((r) => (r.file ? 1 : 0) + (r.url ? 1 : 0) === 1, { message: 'give either a PDF file or a URL, not both' });
export type KnowledgebaseIngestRequest = z.input<typeof knowledgebaseIngestRequest>;
export type Knowledgebase = z.infer<typeof knowledgebase>;

/**
 * The door every content-script message comes through (after the sender check): the size rule all
 * messages share (lib/message-size.ts), then the strict schema. The page's page/find builder sizes
 * its requests by the same constants (lib/phone/find-batch.ts), so it never builds one refused here.
 */
import { MAX_MESSAGE_BYTES, messageSize } from '../message-size';
import { pageRequest, type PageRequest } from '../page/messages';

/** What a refused message is answered (the same words an extension page gets). */
export const TOO_LARGE = { ok: false, error: { message: 'The request was too large.', kind: 'validation' } } as const;

/** The request, or what to answer instead (`TOO_LARGE`; undefined for a message that is no request: no answer). */
export function admitPageMessage(message: unknown): { request: PageRequest } | { refused: typeof TOO_LARGE | undefined } {
  if (messageSize(message) > MAX_MESSAGE_BYTES) return { refused: TOO_LARGE };
  const parsed = pageRequest.safeParse(message);
  return parsed.success ? { request: parsed.data } : { refused: undefined };
}

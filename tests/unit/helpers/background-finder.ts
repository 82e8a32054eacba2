/**
 * What the real background (lib/background/page-service.ts) answers a page's `page/find`: the page's
 * scanner parses nothing itself, so a fake background must answer these as the real one does.
 */
import { parseFindBatch } from '../../../lib/page/messages';
import { findRows } from '../../../lib/phone/find-rows';

/** The JSON answer to a page/find message, or undefined for any other message. */
export function answerFind(message: unknown): string | undefined {
  const request = message as { type?: string; batch?: string };
  if (request.type !== 'page/find' || typeof request.batch !== 'string') return undefined;
  return JSON.stringify(findRows(parseFindBatch(request.batch)!));
}

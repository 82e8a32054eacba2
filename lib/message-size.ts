/**
 * The one size rule for every message the background takes (extension pages and content scripts
 * alike): its JSON text, at most MAX_MESSAGE_BYTES characters, measured before parsing. No imports,
 * so the content script's page/find builder (lib/phone/find-batch.ts) sizes its requests by the same
 * numbers the background refuses them by.
 */

/** Payloads are small; anything larger is refused before parsing. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** A message's size as the background measures it. */
export function messageSize(message: unknown): number {
  return JSON.stringify(message ?? null).length;
}

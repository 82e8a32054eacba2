import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Recordings. The live service hands out presigned storage URLs that expire, so the sandbox does
 * the same: `/recordings/{execution_id}.wav?expires=<unix s>&signature=<hmac>` needs no API key but
 * a valid, unexpired signature.
 */
export const RECORDING_TTL_MS = 60 * 60_000;

/** A real PCM WAV (RIFF header + samples): a tone with short fades so it plays without clicks. */
export function makeWav({ seconds = 2, frequency = 440, sampleRate = 8000 } = {}): Uint8Array<ArrayBuffer> {
  const samples = Math.round(seconds * sampleRate);
  const dataSize = samples * 2; // 16-bit mono
  const buf = Buffer.alloc(44 + dataSize);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataSize, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // fmt chunk size
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataSize, 40);
  const fade = Math.min(samples / 2, sampleRate * 0.05);
  for (let i = 0; i < samples; i++) {
    const envelope = Math.min(1, i / fade, (samples - 1 - i) / fade);
    const value = Math.sin((2 * Math.PI * frequency * i) / sampleRate) * 0.4 * envelope;
    buf.writeInt16LE(Math.round(value * 32767), 44 + i * 2);
  }
  // Copy into a plain ArrayBuffer (Buffers may share a pooled one): a Response body wants its own.
  return new Uint8Array(buf);
}

let cachedWav: Uint8Array<ArrayBuffer> | undefined;
export const recordingWav = () => (cachedWav ??= makeWav());

const sign = (secret: string, executionId: string, expires: number) =>
  createHmac('sha256', secret).update(`${executionId}:${expires}`).digest('hex').slice(0, 32);

export function presignRecording(baseUrl: string, secret: string, executionId: string, nowMs = Date.now()): string {
  const expires = Math.floor((nowMs + RECORDING_TTL_MS) / 1000);
  return `${baseUrl}/recordings/${executionId}.wav?expires=${expires}&signature=${sign(secret, executionId, expires)}`;
}

export type RecordingCheck = 'ok' | 'expired' | 'invalid';

export function checkRecordingSignature(
  secret: string,
  executionId: string,
  expiresText: string | undefined,
  signature: string | undefined,
  nowMs = Date.now(),
): RecordingCheck {
  const expires = Number(expiresText);
  if (!expiresText || !Number.isInteger(expires) || !signature) return 'invalid';
  const want = Buffer.from(sign(secret, executionId, expires));
  const got = Buffer.from(signature);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return 'invalid';
  return expires * 1000 < nowMs ? 'expired' : 'ok';
}

/** Storage-style XML error, as presigned object stores answer (this is not an API route). */
export function storageError(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;
}

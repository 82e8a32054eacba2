/**
 * The background's knowledgebase and phone-number requests through the real router, key store and
 * pending-upload store, with a recording `fetch`: what reaches the service, and what is refused first.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { writeKey } from '../../../lib/background/key-store';
import { handleUiRequest, type RouterDeps } from '../../../lib/background/router';
import { storeSettings } from '../../../lib/background/settings-store';
import type { CallsService } from '../../../lib/background/calls-service';
import { putUpload, takeUpload } from '../../../lib/knowledgebases/uploads';
import type { UiRequest } from '../../../lib/messages';
import { DEFAULT_SETTINGS } from '../../../lib/settings/schema';
import { fakeFetch, json, type FakeFetch } from '../api/fake-fetch';

const BASE = 'https://api.example';
const deps: RouterDeps = { calls: {} as CallsService, openPanel: async () => undefined, now: () => Date.now() };
const send = (request: UiRequest) => handleUiRequest(request, deps);
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

let net: FakeFetch;
beforeEach(async () => {
  fakeBrowser.reset();
  fakeBrowser.permissions.contains = (async () => true) as never;
  net = fakeFetch([], (call) =>
    call.url.pathname === '/knowledgebase'
      ? json({ rag_id: 'kb-1', file_name: 'faq.pdf', source_type: 'pdf', status: 'processing' })
      : json([]),
  );
  vi.stubGlobal('fetch', net.fetch);
  await storeSettings({ ...DEFAULT_SETTINGS, baseUrl: BASE });
  await writeKey(BASE, 'key-1', true);
});
afterEach(() => vi.unstubAllGlobals());

const ingestCalls = () => net.calls.filter((c) => c.url.pathname === '/knowledgebase');

describe('knowledgebases/ingest-file', () => {
  it('uploads the stored PDF multipart, whole, and takes it out of the store', async () => {
    const big = new Uint8Array(300_000);
    big.set(PDF);
    await putUpload('up-1', { name: 'faq.pdf', blob: new Blob([big], { type: 'application/pdf' }) });
    const reply = await send({ type: 'knowledgebases/ingest-file', uploadId: 'up-1' });
    expect(reply).toMatchObject({ ok: true, data: { rag_id: 'kb-1', status: 'processing' } });
    expect(ingestCalls()).toHaveLength(1);
    const form = await ingestCalls()[0]!.request.formData();
    const file = form.get('file') as File;
    expect(file.name).toBe('faq.pdf');
    expect(file.size).toBe(300_000);
    expect(form.get('url')).toBeNull();
    expect(await takeUpload('up-1')).toBeUndefined();
  });

  it.each([
    ['a stored file that is not a PDF', 'notes.pdf', new TextEncoder().encode('hello'), /does not start like a PDF/],
    ['a stored PDF with another name', 'faq.txt', PDF, /not a PDF/],
    ['a stored file over 20 MB', 'huge.pdf', (() => { const b = new Uint8Array(20 * 1024 * 1024 + 1); b.set(PDF); return b; })(), /at most 20 MB/],
  ])('refuses %s without calling the service, and drops it', async (_label, name, bytes, message) => {
    await putUpload('up-2', { name, blob: new Blob([bytes]) });
    const reply = await send({ type: 'knowledgebases/ingest-file', uploadId: 'up-2' });
    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error.message).toMatch(message);
    expect(ingestCalls()).toHaveLength(0);
    expect(await takeUpload('up-2')).toBeUndefined();
  });

  it('says to choose the file again when no upload has that id', async () => {
    const reply = await send({ type: 'knowledgebases/ingest-file', uploadId: 'gone' });
    expect(!reply.ok && reply.error.message).toMatch(/Choose the file again/);
    expect(net.calls).toHaveLength(0);
  });
});

describe('knowledgebases/ingest-url', () => {
  it('sends a checked http(s) URL as the only source', async () => {
    await send({ type: 'knowledgebases/ingest-url', url: ' https://example.com/faq ' });
    const form = await ingestCalls()[0]!.request.formData();
    expect(form.get('url')).toBe('https://example.com/faq');
    expect(form.get('file')).toBeNull();
  });

  it.each(['ftp://example.com/a', 'javascript:alert(1)', 'https://u:p@example.com/'])('refuses %s before the service', async (url) => {
    const reply = await send({ type: 'knowledgebases/ingest-url', url });
    expect(reply.ok).toBe(false);
    expect(net.calls).toHaveLength(0);
  });
});

describe('phone numbers', () => {
  it('search sends the country and only a non-empty pattern', async () => {
    await send({ type: 'phone-numbers/search', country: 'US', pattern: '' });
    await send({ type: 'phone-numbers/search', country: 'GB', pattern: '20' });
    expect(net.calls.map((c) => c.target)).toEqual(['/phone-numbers/search?country=US', '/phone-numbers/search?country=GB&pattern=20']);
  });

  it('buy refuses a number that is not E.164 before the service', async () => {
    const reply = await send({ type: 'phone-numbers/buy', country: 'US', phoneNumber: '4155550100' } as UiRequest);
    expect(reply.ok).toBe(false);
    expect(net.calls).toHaveLength(0);
  });
});

/**
 * Test helpers for UI components: a store fed from the fake browser's storage and the (fake) data
 * store in IndexedDB, a fake background
 * answering `runtime.sendMessage`, and call/execution records to render.
 */
import { render, waitFor } from '@testing-library/preact';
import type { ComponentChildren } from 'preact';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Execution } from '../../../lib/api/schemas/execution';
import type { CallRecord } from '../../../lib/calls/call-record';
import type { Reply, SettingsView, UiRequest } from '../../../lib/messages';
import { parsePhoneInput } from '../../../lib/phone/normalize';
import { createUiStore, StoreContext, type UiStore } from '../../../lib/ui/store';
import type { DataName } from '../../../lib/storage-keys';
import { writeRecord } from '../../../lib/store/data-db';

/** Writes records of the data store as the background would (UI stores that are open hear of it). */
export async function seedData(records: Partial<Record<DataName, unknown>>): Promise<void> {
  for (const [name, value] of Object.entries(records)) await writeRecord(name as DataName, value);
}

export const keyState = (hasKey: boolean, keyHint: string | null = null) => ({ hasKey, keyHint });

export type Handler = (request: UiRequest) => Reply<unknown> | Promise<Reply<unknown>> | undefined;

/** Answers messages like the background would, and records every request. */
export function fakeBackground(handler: Handler): { requests: UiRequest[] } {
  const requests: UiRequest[] = [];
  fakeBrowser.runtime.onMessage.addListener(((message: UiRequest, _sender: unknown, sendResponse: (r: unknown) => void) => {
    requests.push(message);
    // The number check is the real parser, as in the background.
    const answer = message.type === 'phone/parse' ? ok(parsePhoneInput(message.text, message.country)) : handler(message);
    if (answer === undefined) return undefined;
    void Promise.resolve(answer).then(sendResponse);
    return true;
  }) as never);
  return { requests };
}

export const ok = <T,>(data: T): Reply<T> => ({ ok: true, data });
export const fail = (message: string, status?: number): Reply<never> => ({ ok: false, error: { message, status } });

/** Renders `ui` inside a store that has finished its first storage read. */
export async function renderWithStore(ui: ComponentChildren): Promise<ReturnType<typeof render> & { store: UiStore }> {
  const store = createUiStore();
  const result = render(<StoreContext.Provider value={store}>{ui}</StoreContext.Provider>);
  await waitFor(() => {
    if (!store.ready.value) throw new Error('store not ready');
  });
  return Object.assign(result, { store });
}

export const AGENT_ID = '3c90c3cc-0d44-4b50-8888-8dd25736052a';

export function agentsCache(agents = [{ id: AGENT_ID, name: 'Sales qualifier', status: 'processed', manual: false }], extra: object = {}) {
  return { baseUrl: 'http://127.0.0.1:8787', agents, fetchedAt: 1, listRouteMissing: false, ...extra };
}

export function execution(overrides: Partial<Execution> = {}): Execution {
  return {
    id: 'exec-1',
    agent_id: AGENT_ID,
    batch_id: 'b'.repeat(32),
    status: 'completed',
    conversation_time: 42,
    conversation_duration: 42,
    total_cost: 12.5,
    error_message: null,
    answered_by_voice_mail: false,
    transcript: 'assistant: Hello, this is Sam.\nuser: Hi Sam.',
    summary: null,
    created_at: '2026-11-21T12:10:00+00:00',
    updated_at: '2026-11-21T12:12:00+00:00',
    cost_breakdown: { llm: 3, network: 4, platform: 2.5, synthesizer: 2, transcriber: 1 },
    telephony_data: {
      duration: 45,
      to_number: '+14155550123',
      from_number: '+14155550000',
      recording_url: 'https://recordings.example.com/r1.mp3?sig=abc',
      hosted_telephony: true,
      provider_call_id: 'CA123',
      call_type: 'outbound',
      provider: 'twilio',
      hangup_by: 'Callee',
      hangup_reason: 'Call recipient hung up',
      hangup_provider_code: 4000,
      hangup_code: null,
    },
    transfer_call_data: null,
    batch_run_details: null,
    extracted_data: { interested: true, budget: '5000' },
    context_details: null,
    ...overrides,
  } as Execution;
}

export function callRecord(overrides: Partial<CallRecord> = {}): CallRecord {
  return {
    id: 'call-1',
    baseUrl: 'http://127.0.0.1:8787',
    agentId: AGENT_ID,
    agentName: 'Sales qualifier',
    toNumber: '+14155550123',
    fromNumber: null,
    variables: {},
    createdAt: Date.parse('2026-11-21T12:00:00Z'),
    via: 'batch',
    step: 'tracking',
    failure: null,
    trackingPaused: false,
    batchId: 'b'.repeat(32),
    scheduledAt: '2026-11-21T12:02:15+00:00',
    scheduledRequestAt: Date.parse('2026-11-21T12:00:00Z'),
    timeScale: 1,
    executionId: 'exec-1',
    status: 'scheduled',
    observed: [{ status: 'scheduled', at: Date.parse('2026-11-21T12:00:05Z') }],
    execution: null,
    polls: 1,
    consecutiveFailures: 0,
    failingSince: null,
    lastError: null,
    nextPollAt: null,
    stopRequested: false,
    stopSent: false,
    createAttempts: 1,
    scheduleAttempts: 1,
    startAttempts: 0,
    stopRefused: null,
    clockOffset: 0,
    serviceWait: null,
    finishedAt: null,
    notified: false,
    ...overrides,
  };
}

/** What the background answers to settings/get and settings/save. */
export const settingsView = (over: Partial<SettingsView> = {}): SettingsView => ({
  baseUrl: 'http://127.0.0.1:8787',
  defaultCountry: 'US',
  rememberKey: true,
  hasKey: true,
  keyHint: '••••••••wner',
  keyOrigin: 'http://127.0.0.1:8787',
  otherKeyOrigins: [],
  sites: { on: true, mode: 'everywhere', listed: [], paused: [], countries: {} },
  startCallsNow: false,
  problem: null,
  ...over,
});

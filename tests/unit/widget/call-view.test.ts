/** A placement's record as the widget sees it: done, the message, and results only when allowed and over. */
import { describe, expect, it } from 'vitest';
import { newCallRecord } from '../../../lib/calls/dial';
import type { CallRecord } from '../../../lib/calls/call-record';
import { widgetCallView } from '../../../lib/widget/call-view';

const NOW = 1_000_000;
const base = newCallRecord({ id: 'p1', baseUrl: 'https://api.example', agentId: 'a1', agentName: 'a1', toNumber: '+14155550123', fromNumber: null, variables: {}, via: 'call' }, NOW);
const execution = {
  id: 'e1',
  status: 'completed',
  conversation_duration: 42,
  total_cost: 0.12,
  transcript: 'assistant: hello',
  telephony_data: { recording_url: 'https://rec.example/e1.wav' },
  extracted_data: { intent: 'callback' },
} as unknown as NonNullable<CallRecord['execution']>;
const finished: CallRecord = { ...base, step: 'finished', executionId: 'e1', status: 'completed', observed: [{ status: 'completed', at: NOW + 5 }], execution, finishedAt: NOW + 5, nextPollAt: null };

describe('widgetCallView', () => {
  it('a finished call carries its results when transcripts are allowed, and none otherwise', () => {
    expect(widgetCallView(finished, { transcripts: true })).toMatchObject({ done: true, status: 'completed', durationSeconds: 42, cost: 0.12, transcript: 'assistant: hello', recordingUrl: 'https://rec.example/e1.wav', extractedData: { intent: 'callback' }, message: null });
    expect(widgetCallView(finished, { transcripts: false })).toMatchObject({ done: true, durationSeconds: 42, cost: 0.12, transcript: null, recordingUrl: null, extractedData: null });
  });

  it('while a step is tried again, the message says what the service answered; a failure that stays ends the call', () => {
    const retrying: CallRecord = { ...base, lastError: 'The service answered 503: busy', consecutiveFailures: 1, nextPollAt: NOW + 1000 };
    expect(widgetCallView(retrying, { transcripts: true })).toMatchObject({ done: false, message: 'The service answered 503: busy. Trying again.' });
    const failed: CallRecord = { ...base, failure: { step: 'starting-call', message: 'Agent not found', status: 404, at: NOW }, lastError: 'Agent not found', nextPollAt: null };
    expect(widgetCallView(failed, { transcripts: true })).toMatchObject({ done: true, message: 'Agent not found', transcript: null });
    const paused: CallRecord = { ...base, step: 'tracking', trackingPaused: true, lastError: 'The execution is gone', nextPollAt: null };
    expect(widgetCallView(paused, { transcripts: true })).toMatchObject({ done: true, message: 'The execution is gone' });
  });

  it('a Stop not yet confirmed is not done, even after a failed step', () => {
    const stopping: CallRecord = { ...base, failure: { step: 'starting-call', message: 'x', at: NOW }, stopRequested: true, stopSent: false };
    expect(widgetCallView(stopping, { transcripts: true })).toMatchObject({ done: false, stopRequested: true });
  });
});

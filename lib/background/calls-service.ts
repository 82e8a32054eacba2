/**
 * The call tracker's shell: keeps call records in storage, wakes up when a call is due (a timer while
 * the worker lives, an alarm to bring a stopped worker back), runs one step per due call, and reports
 * outcomes through the badge and a notification. Every decision lives in lib/calls (pure).
 */
import { browser } from '../browser';
import type { Execution } from '../api/schemas/execution';
import type { CallRecord } from '../calls/call-record';
import { advanceCall, newCallRecord, retryCall, stopCall, type AdvanceResult, type NewCall } from '../calls/dial';
import { readCalls, upsertCall, writeCalls, CALLS_STORAGE_KEY } from '../calls/history';
import { STATUS_EXPLANATIONS, answered, statusLabel } from '../calls/status';
import { isActive } from '../calls/tracker';
import { describeError } from './describe-error';
import { originOf, readKeyFor } from './key-store';
import { clientFor, NeedsKeyError, type ServiceClient } from './service';

export const TRACKER_ALARM = 'call-tracker';

type Clock = () => number;

export class CallsService {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight = new Set<string>();
  /** Serialises read-modify-write of the `calls` key. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly now: Clock = Date.now,
    private readonly makeClient: (baseUrl: string, key: string) => ServiceClient = clientFor,
  ) {}

  async list(): Promise<CallRecord[]> {
    const stored = await browser.storage.local.get(CALLS_STORAGE_KEY);
    return readCalls(stored[CALLS_STORAGE_KEY]).calls;
  }

  async get(callId: string): Promise<CallRecord | undefined> {
    return (await this.list()).find((c) => c.id === callId);
  }

  private save(call: CallRecord): Promise<void> {
    const write = this.writes.then(async () => {
      const calls = await this.list();
      await browser.storage.local.set({ [CALLS_STORAGE_KEY]: writeCalls(upsertCall(calls, call)) });
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  async forget(callId: string): Promise<void> {
    const write = this.writes.then(async () => {
      const calls = (await this.list()).filter((c) => c.id !== callId);
      await browser.storage.local.set({ [CALLS_STORAGE_KEY]: writeCalls(calls) });
    });
    this.writes = write.catch(() => undefined);
    await write;
    await this.updateBadge();
  }

  /** A fresh read of an execution (e.g. "Reload call" for a new recording link) is kept on its call. */
  async refreshExecution(execution: Execution): Promise<void> {
    const call = (await this.list()).find((c) => c.executionId === execution.id);
    if (call && call.step === 'finished') await this.save({ ...call, execution });
  }

  async dial(input: Omit<NewCall, 'id'>): Promise<CallRecord> {
    const call = newCallRecord({ ...input, id: crypto.randomUUID() }, this.now());
    await this.save(call);
    // The first step runs now, so a refused batch is reported to the dialog that asked for it.
    const result = await this.step(call);
    this.arm();
    return result.call;
  }

  async stop(callId: string): Promise<CallRecord | undefined> {
    const call = await this.get(callId);
    if (!call) return undefined;
    const client = await this.clientFor(call);
    const result = await stopCall(call, client, describeError, this.now);
    await this.commit(call, result);
    this.arm();
    return result.call;
  }

  async retry(callId: string): Promise<CallRecord | undefined> {
    const call = await this.get(callId);
    if (!call) return undefined;
    const next = retryCall(call, this.now());
    await this.save(next);
    const result = await this.step(next);
    this.arm();
    return result.call;
  }

  /** Runs every due call once, then re-arms. Called by the timer, the alarm and at worker start. */
  async runDue(): Promise<void> {
    const now = this.now();
    const due = (await this.list()).filter((c) => isActive(c) && (c.nextPollAt ?? 0) <= now && !this.inFlight.has(c.id));
    await Promise.all(due.map((c) => this.step(c)));
    await this.arm();
  }

  private async clientFor(call: CallRecord): Promise<ServiceClient> {
    // The key of the service the call was placed at, never the one saved later for another service.
    const record = await readKeyFor(originOf(call.baseUrl));
    if (!record) throw new NeedsKeyError(call.baseUrl);
    return this.makeClient(call.baseUrl, record.key);
  }

  private async step(call: CallRecord): Promise<AdvanceResult> {
    this.inFlight.add(call.id);
    try {
      let result: AdvanceResult;
      try {
        const client = await this.clientFor(call);
        result = await advanceCall(call, client, describeError, this.now);
      } catch (error) {
        // No key (a session-only key is gone after a browser restart): pause with the reason.
        result = { call: { ...call, trackingPaused: true, lastError: describeError(error).message, nextPollAt: null }, changed: [] };
      }
      await this.commit(call, result);
      return result;
    } finally {
      this.inFlight.delete(call.id);
    }
  }

  private async commit(before: CallRecord, result: AdvanceResult): Promise<void> {
    let call = result.call;
    if (call.step === 'finished' && !call.notified) {
      call = { ...call, notified: true };
      await this.notify(call);
    }
    // A stop may have landed while this step was in flight: keep the newer flag.
    const latest = await this.get(before.id);
    if (latest?.stopRequested && !call.stopRequested) call = { ...call, stopRequested: true };
    await this.save(call);
    await this.updateBadge();
  }

  /** Sets one timer for the earliest due call and keeps an alarm while any call is active. */
  async arm(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const active = (await this.list()).filter(isActive);
    if (active.length === 0) {
      await browser.alarms.clear(TRACKER_ALARM);
      return;
    }
    const next = Math.min(...active.map((c) => c.nextPollAt ?? this.now()));
    this.timer = setTimeout(() => void this.runDue(), Math.max(0, next - this.now()));
    // Alarms survive a stopped service worker; 30 s is the shortest period Chrome allows.
    const existing = await browser.alarms.get(TRACKER_ALARM);
    if (!existing) browser.alarms.create(TRACKER_ALARM, { periodInMinutes: 0.5, delayInMinutes: 0.5 });
  }

  async updateBadge(): Promise<void> {
    const active = (await this.list()).filter((c) => c.step !== 'finished').length;
    const action = browser.action ?? browser.browserAction;
    await action.setBadgeText({ text: active ? String(active) : '' });
    if (active) await action.setBadgeBackgroundColor({ color: '#1f6feb' });
  }

  private async notify(call: CallRecord): Promise<void> {
    const status = call.status ?? 'finished';
    let detail = STATUS_EXPLANATIONS[status] ?? '';
    if (status === 'completed' && !answered(call.execution?.conversation_duration)) detail = 'The call completed but nobody spoke (zero duration).';
    try {
      await browser.notifications.create(`call-${call.id}`, {
        type: 'basic',
        iconUrl: browser.runtime.getURL('/icon/128.png'),
        title: `${statusLabel(status)}: ${call.toNumber}`,
        message: `${call.agentName}. ${detail}`.trim(),
      });
    } catch {
      // Notifications can be disabled by the user or the OS; the call record still shows the outcome.
    }
  }
}

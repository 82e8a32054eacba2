/**
 * The call tracker's shell: keeps call records in storage, wakes up when a call is due (a timer while
 * the worker lives, an alarm to bring a stopped worker back), runs one step per due call, and reports
 * outcomes through the badge and a notification. Every decision lives in lib/calls (pure).
 *
 * Every trigger of a step (Confirm, Retry, Stop, the timer, the alarm, the startup resume) goes through
 * one queue per call, so a call never has two steps in flight; each step reads the latest stored
 * record when it starts and writes its result over the latest one when it ends.
 */
import { browser } from '../browser';
import type { Execution } from '../api/schemas/execution';
import type { CallRecord } from '../calls/call-record';
import { advanceCall, markAttempt, newCallRecord, requestStop, retryCall, type AdvanceResult, type NewCall } from '../calls/dial';
import { upsertCall } from '../calls/history';
import { ActiveCallError, activeCallTo, mergeOnLatest } from '../calls/latest';
import { answered } from '../calls/status';
import { statusExplanation, statusText } from '../calls/status-text';
import { t } from '../i18n';
import { isActive } from '../placement/tracker';
import { callStore } from './call-store';
import { describeError } from './describe-error';
import { originOf, readKeyFor } from './key-store';
import { clientFor, NeedsKeyError, type ServiceClient } from './service';

export const TRACKER_ALARM = 'call-tracker';

type Clock = () => number;

export interface DialOptions {
  /** The user was told a call to this number is in progress and chose to call again. */
  again?: boolean;
}

export class CallsService {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Per call, the tail of its queue of steps: one step in flight at a time. */
  private queues = new Map<string, Promise<unknown>>();
  /** Serialises read-modify-write of the `calls` key. */
  private writes: Promise<unknown> = Promise.resolve();
  /** Serialises read-modify-write of single records (on the latest stored copy), whatever stores them. */
  private updates: Promise<unknown> = Promise.resolve();
  /** Forgotten while a step may still be in flight: its late result must not bring the call back. */
  private forgotten = new Set<string>();

  constructor(
    private readonly now: Clock = Date.now,
    private readonly makeClient: (baseUrl: string, key: string) => ServiceClient = clientFor,
  ) {}

  async list(): Promise<CallRecord[]> {
    return callStore.list(this.now);
  }

  async get(callId: string): Promise<CallRecord | undefined> {
    return (await this.list()).find((c) => c.id === callId);
  }

  private save(call: CallRecord): Promise<void> {
    const write = this.writes.then(async () => {
      const calls = await this.list();
      await callStore.write(upsertCall(calls, call), this.now);
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  async forget(callId: string): Promise<void> {
    this.forgotten.add(callId);
    const write = this.writes.then(async () => {
      const calls = (await this.list()).filter((c) => c.id !== callId);
      await callStore.write(calls, this.now);
    });
    this.writes = write.catch(() => undefined);
    await write;
    await this.updateBadge();
  }

  /** A fresh read of an execution (e.g. "Reload call" for a new recording link) is kept on its call. */
  async refreshExecution(execution: Execution): Promise<void> {
    const call = (await this.list()).find((c) => c.executionId === execution.id);
    if (call) await this.update(call.id, (latest) => (latest.step === 'finished' ? { ...latest, execution } : latest));
  }

  /**
   * Places a call under the dial id the UI chose when the user confirmed: the same id twice (a double
   * submit, a retry after a lost answer) is the same call. Answers once the call is stored; its steps
   * run in the background, so Stop is available from the first moment.
   */
  async dial(input: NewCall, options: DialOptions = {}): Promise<CallRecord> {
    const fresh = newCallRecord(input, this.now());
    const { call, created } = await this.serial(async () => {
      const calls = await this.list();
      const existing = calls.find((c) => c.id === input.id);
      if (existing) return { call: existing, created: false };
      const active = activeCallTo(calls, input.toNumber);
      if (active && !options.again) throw new ActiveCallError(active);
      await this.save(fresh);
      return { call: fresh, created: true };
    });
    if (created) void this.runStep(call.id).then(() => this.arm());
    return call;
  }

  /** Stops the call; resolves once the stop step ran (the service answered it, or its failure is written). */
  async stop(callId: string): Promise<CallRecord | undefined> {
    const { flagged, stopping } = await this.flagStop(callId);
    return flagged ? stopping : undefined;
  }

  /**
   * Stop as a person presses it: answered as soon as the flag is stored, so every page says
   * "Stopping…" at once, however slow the service or busy the worker; the stop itself runs as the
   * call's next step and its outcome reaches the pages through storage.
   */
  async pressStop(callId: string): Promise<CallRecord | undefined> {
    return (await this.flagStop(callId)).flagged;
  }

  private async flagStop(callId: string): Promise<{ flagged: CallRecord | undefined; stopping: Promise<CallRecord | undefined> }> {
    // The flag is stored first (a step in flight keeps it when it commits), then the stop runs as the call's next step.
    const flagged = await this.update(callId, (latest) => requestStop(latest, this.now()));
    if (!flagged) return { flagged, stopping: Promise.resolve(undefined) };
    const stopping = this.runStep(callId);
    void stopping.then(
      () => this.arm(),
      () => this.arm(),
    );
    return { flagged, stopping };
  }

  async retry(callId: string): Promise<CallRecord | undefined> {
    const call = await this.runStep(callId, { before: (latest) => retryCall(latest, this.now()) });
    void this.arm();
    return call;
  }

  /** Runs every due call once, then re-arms. Called by the timer, the alarm and at worker start. */
  async runDue(): Promise<void> {
    const now = this.now();
    const due = (await this.list()).filter((c) => isActive(c) && (c.nextPollAt ?? 0) <= now && !this.queues.has(c.id));
    await Promise.all(due.map((c) => this.runStep(c.id, { onlyIfDue: true })));
    await this.arm();
  }

  /** Resolves once no step of any call is in flight or queued (for tests and benches). */
  async idle(): Promise<void> {
    while (this.queues.size) await Promise.all([...this.queues.values()]);
    await this.updates;
  }

  private async clientFor(call: CallRecord): Promise<ServiceClient> {
    // The key of the service the call was placed at, never the one saved later for another service.
    const record = await readKeyFor(originOf(call.baseUrl));
    if (!record) throw new NeedsKeyError(call.baseUrl);
    return this.makeClient(call.baseUrl, record.key);
  }

  /** Queues `work` behind every step of this call already queued or in flight. */
  private exclusive<T>(callId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(callId) ?? Promise.resolve();
    const run = previous.then(work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(callId, tail);
    void tail.then(() => {
      if (this.queues.get(callId) === tail) this.queues.delete(callId);
    });
    return run;
  }

  /** One read-modify-write at a time across all records (the `calls` key holds them all). */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.updates.then(work);
    this.updates = run.catch(() => undefined);
    return run;
  }

  /** Applies `change` to the latest stored record; a forgotten call stays forgotten (undefined). */
  private update(callId: string, change: (latest: CallRecord) => CallRecord): Promise<CallRecord | undefined> {
    return this.serial(async () => {
      const latest = this.forgotten.has(callId) ? undefined : await this.get(callId);
      if (!latest) return undefined;
      const next = change(latest);
      if (next === latest) return next;
      // Checked again with no await before the save is queued: a Forget since the read wins.
      if (this.forgotten.has(callId)) return undefined;
      await this.save(next);
      return next;
    });
  }

  /**
   * The one way a step runs: queued behind the call's other steps, on the latest record, only while
   * the call is active (and, for the timer, still due). A create or schedule is counted before it is sent.
   */
  private runStep(callId: string, opts: { onlyIfDue?: boolean; before?: (latest: CallRecord) => CallRecord } = {}): Promise<CallRecord | undefined> {
    return this.exclusive(callId, async () => {
      let call = opts.before ? await this.update(callId, opts.before) : this.forgotten.has(callId) ? undefined : await this.get(callId);
      if (!call || !isActive(call)) return call;
      if (opts.onlyIfDue && (call.nextPollAt ?? 0) > this.now()) return call;
      if (markAttempt(call)) {
        call = await this.update(callId, (latest) => markAttempt(latest) ?? latest);
        if (!call) return undefined;
      }
      let result: AdvanceResult;
      try {
        const client = await this.clientFor(call);
        // Executions other calls own are never taken by this call's lookup after a lost answer.
        const owned = new Set((await this.list()).flatMap((c) => (c.id !== callId && c.executionId ? [c.executionId] : [])));
        result = await advanceCall(call, client, describeError, this.now, owned);
      } catch (error) {
        // No key (a session-only key is gone after a browser restart): pause with the reason.
        result = { call: { ...call, trackingPaused: true, lastError: describeError(error).message, nextPollAt: null }, changed: [] };
      }
      return this.commit(callId, result);
    });
  }

  private async commit(callId: string, result: AdvanceResult): Promise<CallRecord | undefined> {
    let notify = false;
    const saved = await this.update(callId, (latest) => {
      const merged = mergeOnLatest(latest, result.call);
      notify = merged.step === 'finished' && !merged.notified;
      return notify ? { ...merged, notified: true } : merged;
    });
    if (saved && notify) await this.notify(saved);
    await this.updateBadge();
    return saved;
  }

  /** Sets one timer for the earliest due call and keeps an alarm while any call is active. */
  async arm(): Promise<void> {
    const active = (await this.list()).filter(isActive);
    // Cleared after the read, not before it: two arms at once (a step's and the timer's) each set a
    // timer, and the one cleared before the other's read was left running (a second runDue, and in
    // tests a service left from the case before stepping the next case's call).
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
    let detail = statusExplanation(status) ?? '';
    if (status === 'completed' && !answered(call.execution?.conversation_duration)) detail = t('calls_notifyNobodySpoke');
    try {
      await browser.notifications.create(`call-${call.id}`, {
        type: 'basic',
        iconUrl: browser.runtime.getURL('/icon/128.png'),
        title: t('calls_notifyTitle', statusText(status), call.toNumber),
        message: detail ? t('calls_notifyMessage', call.agentName, detail) : t('calls_notifyMessageAgentOnly', call.agentName),
      });
    } catch {
      // Notifications can be disabled by the user or the OS; the call record still shows the outcome.
    }
  }
}

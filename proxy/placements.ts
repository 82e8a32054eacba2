/**
 * The proxy's calls: each is a placement of one number on the one engine (lib/calls/dial.ts over
 * lib/placement/), held in memory by id with the token that placed it, and written through a
 * `PlacementStore` after every change. Every step goes through one queue per call (never two in
 * flight), a step that changes the service is counted and stored first (markAttempt), and a lookup
 * after a lost answer never takes another call's execution — the rules are the engine's.
 *
 * Where calls are kept and when steps run are the shell's choice: Node keeps them in its memory only
 * (`memoryOnly`) and runs every due step from a timer (`advanceDue`); on Workers one Durable Object
 * holds this class with its storage as the store (proxy/durable-calls.ts), runs every due step from
 * its alarm (`advanceDue`), and a widget's read also runs its call's due step (`stepIfDue`).
 */
import type { CallRecord } from '../lib/calls/call-record';
import { advanceCall, markAttempt, newCallRecord, requestStop, type DescribeError } from '../lib/calls/dial';
import { mergeOnLatest } from '../lib/calls/latest';
import type { PlacementClient } from '../lib/placement/client';
import { describeServiceError } from '../lib/placement/describe';
import { isActive } from '../lib/placement/tracker';
import type { WidgetCallRequest } from '../lib/widget/wire';

/** Who placed a call: the token's id, its label, and the page origin it was used from. */
export interface Placer {
  tokenId: string;
  who: string | null;
  origin: string;
}

/** One line of the audit log: a call the proxy placed (or tried to), written once. */
export interface AuditEntry {
  at: string;
  placementId: string;
  tokenId: string;
  who: string | null;
  origin: string;
  agentId: string;
  toNumber: string;
  via: string;
  /** The service's execution id; null when the call ended before the service made one. */
  executionId: string | null;
  batchId: string | null;
  /** `placed`: the service made the call; `not-placed`: it ended without one (refused, stopped first). */
  outcome: 'placed' | 'not-placed';
  /** Why, when not placed. */
  message: string | null;
}

export type Audit = (entry: AuditEntry) => void | Promise<void>;

/** One call as it is held and stored: its record, who placed it, whether its audit line is out. */
export interface HeldCall {
  record: CallRecord;
  placer: Placer;
  audited: boolean;
  /** The page's Idempotency-Key it was placed with, if any. */
  intent?: string;
}

/**
 * Where calls are kept beyond this object's memory: read once (`load`), written after each change.
 * Writes of one call are sent in order; the last one written is the call's latest state.
 */
export interface PlacementStore {
  load(): Promise<HeldCall[]>;
  save(call: HeldCall): Promise<void>;
  drop(id: string): Promise<void>;
}

/** Node: calls live in the process's memory only (a restart forgets them; the service still finishes them). */
export const memoryOnly: PlacementStore = {
  load: async () => [],
  save: async () => {},
  drop: async () => {},
};

type Awaitable<T> = T | Promise<T>;

/** What the app asks of the calls: `WidgetPlacements` itself (Node), or the Durable Object holding it (Workers). */
export interface CallDesk {
  byIntent(tokenId: string, intent: string): Awaitable<CallRecord | undefined>;
  place(request: WidgetCallRequest, placer: Placer, intent?: string): Promise<CallRecord>;
  get(id: string, tokenId: string): Awaitable<CallRecord | undefined>;
  stop(id: string, tokenId: string): Promise<CallRecord | undefined>;
  stepIfDue(id: string): Promise<CallRecord | undefined>;
}

/**
 * The service's errors in the engine's words, with the HTTP status said where a passing one (429, 5xx)
 * is tried again: the widget's view shows it, whatever text the service sent with it.
 */
export const describeForWidget: DescribeError = (error) => {
  const described = describeServiceError(error);
  if (!described.transient || !described.status || described.message.includes(String(described.status))) return described;
  return { ...described, message: `The service answered ${described.status}: ${described.message}` };
};

/** Finished calls are kept this long for the widget's last reads, then dropped. */
const KEEP_FINISHED_MS = 60 * 60_000;

export class WidgetPlacements implements CallDesk {
  private held = new Map<string, HeldCall>();
  private queues = new Map<string, Promise<unknown>>();
  /** A page's intent (token id + Idempotency-Key) → the call it made: a resent POST is the same call. */
  private intents = new Map<string, string>();
  /** Called after anything changed a call's next step time (the Node shell re-arms its timer). */
  onChange: () => void = () => {};

  constructor(
    private readonly client: PlacementClient,
    private readonly options: { baseUrl: string; audit: Audit; now?: () => number; store?: PlacementStore },
  ) {}

  private now = () => (this.options.now ?? Date.now)();
  private get store(): PlacementStore {
    return this.options.store ?? memoryOnly;
  }

  /** Takes up the calls kept in the store (a Durable Object woken again); before any request. */
  async restore(): Promise<void> {
    for (const held of await this.store.load()) {
      this.held.set(held.record.id, held);
      if (held.intent) this.intents.set(`${held.placer.tokenId} ${held.intent}`, held.record.id);
    }
  }

  /** Writes the call as it is now (a snapshot: later changes are written by their own save). */
  private save(held: HeldCall): Promise<void> {
    return this.store.save({ ...held });
  }

  /** The call this token already placed for this intent (its Idempotency-Key), if any. */
  byIntent(tokenId: string, intent: string): CallRecord | undefined {
    const id = this.intents.get(`${tokenId} ${intent}`);
    return id ? this.get(id, tokenId) : undefined;
  }

  /** Places a call for `placer` and runs its first step now (the create, or `POST /call`). */
  async place(request: WidgetCallRequest, placer: Placer, intent?: string): Promise<CallRecord> {
    const id = crypto.randomUUID();
    if (intent) this.intents.set(`${placer.tokenId} ${intent}`, id);
    const record = newCallRecord(
      { id, baseUrl: this.options.baseUrl, agentId: request.agentId, agentName: request.agentId, toNumber: request.toNumber, fromNumber: null, variables: request.variables, via: request.via },
      this.now(),
    );
    const held: HeldCall = { record, placer, audited: false, ...(intent ? { intent } : {}) };
    this.held.set(id, held);
    await this.save(held);
    await this.prune();
    return (await this.step(id, false)) ?? record;
  }

  /** The call, only for the token that placed it (another token learns nothing, not even that it exists). */
  get(id: string, tokenId: string): CallRecord | undefined {
    const held = this.held.get(id);
    return held && held.placer.tokenId === tokenId ? held.record : undefined;
  }

  /** Stop: flagged at once, then performed as the call's next step (the engine's rules). */
  async stop(id: string, tokenId: string): Promise<CallRecord | undefined> {
    const held = this.held.get(id);
    if (!held || held.placer.tokenId !== tokenId) return undefined;
    held.record = requestStop(held.record, this.now());
    await this.save(held);
    return this.step(id, false);
  }

  /** The call's step if one is due (a Workers read): at most one step per read. */
  stepIfDue(id: string): Promise<CallRecord | undefined> {
    return this.step(id, true);
  }

  /** Every due step of every call, at once (the Node shell's timer). */
  async advanceDue(): Promise<void> {
    const now = this.now();
    const due = [...this.held.values()].filter((h) => isActive(h.record) && (h.record.nextPollAt ?? 0) <= now && !this.queues.has(h.record.id));
    await Promise.all(due.map((h) => this.step(h.record.id, true)));
  }

  /** When the next step of any call is due (local ms), or null when no call is active. */
  nextDueAt(): number | null {
    const times = [...this.held.values()].filter((h) => isActive(h.record)).map((h) => h.record.nextPollAt ?? this.now());
    return times.length ? Math.min(...times) : null;
  }

  /** Resolves once no step is in flight (tests, and a clean shutdown). */
  async idle(): Promise<void> {
    while (this.queues.size) await Promise.all([...this.queues.values()]);
  }

  /** Calls held, active or not. */
  size(): number {
    return this.held.size;
  }

  private step(id: string, onlyIfDue: boolean): Promise<CallRecord | undefined> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const run = previous.then(() => this.runStep(id, onlyIfDue));
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
      this.onChange();
    });
    return run;
  }

  private async runStep(id: string, onlyIfDue: boolean): Promise<CallRecord | undefined> {
    const held = this.held.get(id);
    if (!held) return undefined;
    if (!isActive(held.record) || (onlyIfDue && (held.record.nextPollAt ?? 0) > this.now())) return held.record;
    // Counted before it is sent: after a lost answer the next try looks before acting again.
    const before = markAttempt(held.record) ?? held.record;
    held.record = before;
    await this.save(held);
    const owned = new Set([...this.held.values()].flatMap((h) => (h.record.id !== id && h.record.executionId ? [h.record.executionId] : [])));
    const { call } = await advanceCall(before, this.client, describeForWidget, this.now, owned);
    // Written over the latest record: a Stop pressed while the step was in flight is kept (lib/calls/latest.ts).
    held.record = mergeOnLatest(held.record, call);
    await this.save(held);
    await this.auditOnce(held);
    return held.record;
  }

  /** One audit line per call: when the service made it, or when it ended without it. */
  private async auditOnce(held: HeldCall): Promise<void> {
    const r = held.record;
    if (held.audited || (!r.executionId && isActive(r))) return;
    held.audited = true;
    // Stored before the line is written: a line lost to a crash in between beats the same call logged twice.
    await this.save(held);
    await this.options.audit({
      at: new Date(this.now()).toISOString(),
      placementId: r.id,
      tokenId: held.placer.tokenId,
      who: held.placer.who,
      origin: held.placer.origin,
      agentId: r.agentId,
      toNumber: r.toNumber,
      via: r.via,
      executionId: r.executionId,
      batchId: r.batchId,
      outcome: r.executionId ? 'placed' : 'not-placed',
      message: r.executionId ? null : (r.failure?.message ?? r.lastError ?? r.status),
    });
  }

  /** Drops calls finished long ago (the widget has read them by then). */
  private async prune(): Promise<void> {
    const now = this.now();
    const gone: string[] = [];
    for (const [id, held] of this.held) {
      if (!isActive(held.record) && (held.record.finishedAt ?? held.record.createdAt) < now - KEEP_FINISHED_MS && !this.queues.has(id)) {
        this.held.delete(id);
        gone.push(id);
      }
    }
    for (const [intent, id] of this.intents) if (!this.held.has(id)) this.intents.delete(intent);
    await Promise.all(gone.map((id) => this.store.drop(id)));
  }
}

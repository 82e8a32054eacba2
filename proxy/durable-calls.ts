/**
 * On Workers, the proxy's calls live in one Durable Object per deployment (`WidgetCallsObject`,
 * bound as WIDGET_CALLS): every isolate's request reaches the same object, so any isolate finds a
 * call, and the call survives an isolate (or the object itself) being recycled — its state is in the
 * object's storage, written after every change and read back when the object wakes. The object's
 * alarm runs every due step, as Node's timer does, so a call is followed to its end even when no
 * widget reads it any more (a read also runs its call's step when one is due).
 *
 * The object holds the same `WidgetPlacements` as the Node process (the engine's rules stay there),
 * with its storage as the store, the service client (so the key and the service budget live here
 * too), and the page rate windows, so they count every isolate's requests. The Worker keeps what
 * needs no shared state: origin, token, policy and body checks, and the answers (app.ts).
 *
 * One object, not one per call: the rules need every call in one place — an execution a lookup finds
 * must not be another call's, an Idempotency-Key is found by token and key, not by call id, and the
 * proxy-wide limits count all calls. The object runs one request at a time, far above one team's
 * widget traffic (the default limit is 1,200 page requests a minute).
 */
import { DurableObject, type DurableObjectState, type DurableObjectStorage } from 'cloudflare:workers';
import type { CallRecord } from '../lib/calls/call-record';
import type { WidgetCallRequest } from '../lib/widget/wire';
import { consoleAudit } from './audit';
import { readConfig, type ProxyConfig } from './config';
import { WidgetPlacements, type CallDesk, type HeldCall, type Placer, type PlacementStore } from './placements';
import { parsePolicy, type Policy } from './policy';
import { pageLimits, type PageLimits, type PageWindow, type Room } from './rate-limit';
import { serviceClient } from './service';

/** The Worker's environment: text variables and secrets, and the Durable Object binding. */
export type WorkerEnv = Record<string, unknown>;

const POLICY_VAR = 'VOICE_AGENT_PROXY_POLICY';
const CALLS_BINDING = 'WIDGET_CALLS';
/** The deployment's one object. */
const OBJECT_NAME = 'widget-calls';
const CALL_KEY = 'call:';

/** The configuration both the Worker and the object read (errors name the variable, never its value). */
export function readWorkerEnv(env: WorkerEnv): { config: ProxyConfig; policy: Policy } {
  const vars = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const config = readConfig(vars);
  const text = vars[POLICY_VAR];
  if (!text) throw new Error(`${POLICY_VAR} is not set: the policy file's JSON, as a text variable.`);
  return { config, policy: parsePolicy(text, POLICY_VAR) };
}

/** The object's storage as the placements' store: one key per call. */
export function durableStore(storage: DurableObjectStorage): PlacementStore {
  return {
    load: async () => [...(await storage.list<HeldCall>({ prefix: CALL_KEY })).values()],
    save: (call) => storage.put(CALL_KEY + call.record.id, call),
    drop: async (id) => {
      await storage.delete(CALL_KEY + id);
    },
  };
}

export class WidgetCallsObject extends DurableObject<WorkerEnv> implements CallDesk, PageLimits {
  private readonly placements: WidgetPlacements;
  private readonly limits: PageLimits;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    const { config, policy } = readWorkerEnv(env);
    const service = serviceClient({ baseUrl: config.baseUrl, apiKey: config.apiKey, perMinute: policy.limits.serviceRequestsPerMinute });
    this.placements = new WidgetPlacements(service, { baseUrl: config.baseUrl, audit: consoleAudit, store: durableStore(ctx.storage) });
    this.limits = pageLimits(policy.limits);
    this.placements.onChange = () => void this.arm();
    // No request is let in before the stored calls are back in memory (and their next step armed).
    void ctx.blockConcurrencyWhile(async () => {
      await this.placements.restore();
      await this.arm();
    });
  }

  /** The alarm at the earliest due step of any call, or none when no call is active (Node's timer, here). */
  private async arm(): Promise<void> {
    const at = this.placements.nextDueAt();
    if (at === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(at, Date.now()));
  }

  async alarm(): Promise<void> {
    try {
      await this.placements.advanceDue();
    } catch (error) {
      // A step's failure is the call's (its record says so); the alarm goes on for the others.
      console.error('proxy: a due step failed', error instanceof Error ? error.message : String(error));
    }
    await this.arm();
  }

  // The desk's methods, called from the Worker over RPC.
  byIntent(tokenId: string, intent: string): CallRecord | undefined {
    return this.placements.byIntent(tokenId, intent);
  }
  place(request: WidgetCallRequest, placer: Placer, intent?: string): Promise<CallRecord> {
    return this.placements.place(request, placer, intent);
  }
  get(id: string, tokenId: string): CallRecord | undefined {
    return this.placements.get(id, tokenId);
  }
  stop(id: string, tokenId: string): Promise<CallRecord | undefined> {
    return this.placements.stop(id, tokenId);
  }
  stepIfDue(id: string): Promise<CallRecord | undefined> {
    return this.placements.stepIfDue(id);
  }
  take(window: PageWindow, key: string, now: number): Room {
    return this.limits.take(window, key, now) as Room;
  }
}

interface CallsNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): CallDesk & PageLimits;
}

/** The Worker's side: each call asks the deployment's object (a stub per request, as the runtime wants). */
export function callsObject(env: WorkerEnv): CallDesk & PageLimits {
  const namespace = env[CALLS_BINDING] as CallsNamespace | undefined;
  if (!namespace || typeof namespace.idFromName !== 'function') {
    throw new Error(`${CALLS_BINDING} is not bound: the Durable Object binding of class WidgetCallsObject (docs/proxy.md, "On Cloudflare Workers").`);
  }
  const object = () => namespace.get(namespace.idFromName(OBJECT_NAME));
  return {
    byIntent: (tokenId, intent) => object().byIntent(tokenId, intent),
    place: (request, placer, intent) => object().place(request, placer, intent),
    get: (id, tokenId) => object().get(id, tokenId),
    stop: (id, tokenId) => object().stop(id, tokenId),
    stepIfDue: (id) => object().stepIfDue(id),
    take: (window, key, now) => object().take(window, key, now),
  };
}

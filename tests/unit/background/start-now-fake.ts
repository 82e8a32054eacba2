/**
 * A small stand-in for a voice agent service with (or without) `POST /call`, keeping real state
 * (executions and their statuses, and just enough batches for the fallback), for the calls service's
 * start-now tests. Requests can be held open or fail, before or after the service acted.
 */
import { ApiError } from '../../../lib/api/errors';
import { execution } from '../../../lib/api/schemas/execution';
import type { ServiceClient } from '../../../lib/background/service';
import { FaultyRequests } from './fake-faults';

export const AGENT = 'agent-1';
export const TO = '+14155552671';

export type Method = 'startCall' | 'stopCall' | 'listAgentExecutions' | 'getExecution' | 'createBatch' | 'scheduleBatch' | 'listBatchExecutions' | 'getBatch' | 'stopBatch' | 'listAgentBatches';

export const httpError = (status: number, message: string) => new ApiError({ kind: 'http', status, message, serviceMessage: message, method: 'POST', path: '/call' });
export const lostAnswer = () => new ApiError({ kind: 'network', message: 'Could not reach the service (socket hang up).', method: 'POST', path: '/call' });

export interface FakeExecution {
  id: string;
  agent_id: string;
  to_number: string;
  batch_id: string | null;
  status: string;
  created_at: string;
  user_data?: Record<string, string>;
  from_number?: string;
}

/** A small stand-in for a service with (or without) `POST /call`, and just enough batches for the fallback. */
export class FakeService extends FaultyRequests<Method> {
  executions = new Map<string, FakeExecution>();
  batches = new Map<string, { status: string }>();
  /** The service has no `POST /call` (answers the route 404). */
  missingRoute = false;
  /** What the client remembers about the route (as the real client's route memory does). */
  remembered: boolean | undefined = undefined;
  private next = 1;

  /** The service clock's speed against ours (the sandbox runs faster); its clock starts level with ours. */
  speed = 1;
  private readonly origin: number;

  constructor(private readonly clock: () => number) {
    super();
    this.origin = clock();
  }

  /** The service's own time now (what it stamps records with). */
  serviceNow(): number {
    return this.origin + (this.clock() - this.origin) * this.speed;
  }

  /** The service keeps no `user_data` in its records (a service that could not tell its calls apart). */
  dropsUserData = false;

  /** A list route's trimmed record: no context details. */
  private wire(e: FakeExecution) {
    return execution.parse({ id: e.id, agent_id: e.agent_id, batch_id: e.batch_id, status: e.status, created_at: e.created_at, telephony_data: { to_number: e.to_number } });
  }

  /** `GET /executions/{id}`: the full record, with `POST /call`'s `user_data` as `context_details.recipient_data` (live). */
  private full(e: FakeExecution) {
    const context = this.dropsUserData ? {} : { context_details: { recipient_data: e.user_data ?? {}, recipient_phone_number: e.to_number } };
    return execution.parse({ ...this.wire(e), ...context });
  }

  /** Immediate calls placed at the service (not batch rows). */
  placed(): FakeExecution[] {
    return [...this.executions.values()].filter((e) => !e.batch_id);
  }

  client(): ServiceClient {
    const after = <T>(method: Method, act: () => T): Promise<T> => this.answer(method, act);
    const fake = {
      baseUrl: 'http://sandbox',
      timeScale: () => this.speed,
      clockOffset: () => (this.speed === 1 ? undefined : this.serviceNow() - this.clock()),
      offersStartCall: async () => this.remembered,
      startCall: (req: { agent_id: string; recipient_phone_number: string; from_phone_number?: string; user_data?: Record<string, string> }) =>
        after('startCall', () => {
          if (this.missingRoute) {
            this.remembered = false;
            throw httpError(404, 'Not Found');
          }
          this.remembered = true;
          const id = `exec-${this.next++}`;
          this.executions.set(id, {
            id,
            agent_id: req.agent_id,
            to_number: req.recipient_phone_number,
            batch_id: null,
            status: 'queued',
            created_at: new Date(this.serviceNow()).toISOString(),
            user_data: req.user_data,
            from_number: req.from_phone_number,
          });
          return { message: 'done', status: 'queued', execution_id: id };
        }),
      stopCall: (id: string) =>
        after('stopCall', () => {
          const e = this.executions.get(id);
          if (!e) throw httpError(404, 'Execution not found');
          if (e.status !== 'queued' && e.status !== 'scheduled') throw httpError(400, `Call is ${e.status}: only a queued or scheduled call can be stopped`);
          e.status = 'stopped';
          return { message: 'done', status: 'stopped', execution_id: id };
        }),
      // Newest first, a page at a time, as the live route answers.
      listAgentExecutions: (agentId: string, query: { page_size?: number; page_number?: number } = {}) =>
        after('listAgentExecutions', () => {
          const all = [...this.executions.values()].filter((e) => e.agent_id === agentId).sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
          const size = query.page_size ?? 20;
          const start = ((query.page_number ?? 1) - 1) * size;
          return { data: all.slice(start, start + size).map((e) => this.wire(e)), has_more: start + size < all.length };
        }),
      getExecution: (id: string) => after('getExecution', () => this.full(this.executions.get(id)!)),
      // The fallback: a single-call batch whose row is an execution too.
      createBatch: () =>
        after('createBatch', () => {
          const id = String(this.next++).padStart(32, '0');
          this.batches.set(id, { status: 'created' });
          return { batch_id: id };
        }),
      scheduleBatch: (id: string) =>
        after('scheduleBatch', () => {
          this.batches.get(id)!.status = 'scheduled';
          this.executions.set(`row-${id}`, { id: `row-${id}`, agent_id: AGENT, to_number: TO, batch_id: id, status: 'scheduled', created_at: new Date(this.clock()).toISOString() });
          return { state: 'scheduled' };
        }),
      listBatchExecutions: (id: string) => after('listBatchExecutions', () => [this.wire(this.executions.get(`row-${id}`)!)]),
      getBatch: (id: string) => after('getBatch', () => ({ batch_id: id, status: this.batches.get(id)!.status })),
      stopBatch: (id: string) =>
        after('stopBatch', () => {
          this.batches.get(id)!.status = 'stopped';
          this.executions.get(`row-${id}`)!.status = 'stopped';
          return { state: 'stopped' };
        }),
      listAgentBatches: () => after('listAgentBatches', () => []),
      deleteBatch: async () => ({}),
    };
    return fake as unknown as ServiceClient;
  }

  count(method: Method): number {
    return this.requests.filter((m) => m === method).length;
  }
}

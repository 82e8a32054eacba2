/**
 * The few Workers runtime types the proxy uses from `cloudflare:workers` (the runtime provides the
 * module; @cloudflare/workers-types is not installed here, so only what proxy/durable-calls.ts needs).
 */
declare module 'cloudflare:workers' {
  export interface DurableObjectStorage {
    put<T>(key: string, value: T): Promise<void>;
    delete(key: string): Promise<boolean>;
    list<T>(options?: { prefix?: string }): Promise<Map<string, T>>;
    setAlarm(scheduledTime: number): Promise<void>;
    deleteAlarm(): Promise<void>;
  }
  export interface DurableObjectState {
    readonly storage: DurableObjectStorage;
    blockConcurrencyWhile<T>(work: () => Promise<T>): Promise<T>;
  }
  export abstract class DurableObject<Env = unknown> {
    protected ctx: DurableObjectState;
    protected env: Env;
    constructor(ctx: DurableObjectState, env: Env);
  }
}

/**
 * A fault-injecting HTTP proxy in front of the sandbox, for tests and benches: it listens on
 * 127.0.0.1 (port 0 by default) and forwards every request to the sandbox, except that a seeded PRNG
 * picks a fault for about `rate` of the service's requests (never the sandbox's /__sandbox/* test
 * controls, never CORS preflights):
 *
 *   429          answered by the proxy with Retry-After; the sandbox never sees the request
 *   502/503/504  answered by the proxy (a gateway refusing); the sandbox never sees the request
 *   delay        held for a few seconds, then forwarded and answered normally
 *   drop-request the connection is dropped before the sandbox sees the request
 *   drop-answer  forwarded; once the sandbox's whole answer is read, the client's connection is
 *                dropped, so the sandbox processed the request but the client never hears of it
 *
 * Every answer carries `Connection: close`, so each client request has a connection of its own:
 * a browser silently resends a request whose *reused* keep-alive connection dies before any answer
 * byte, which would hide a second POST behind the proxy's back and blur what the client did.
 * The same seed and the same sequence of requests give the same faults (`log`).
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAULT_KINDS = ['status-429', 'status-502', 'status-503', 'status-504', 'delay', 'drop-request', 'drop-answer'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** How likely each kind is, relative to the others (the default mix: every kind equally likely). */
export type FaultMix = Partial<Record<FaultKind, number>>;
export const DEFAULT_MIX: Readonly<Record<FaultKind, number>> = Object.fromEntries(FAULT_KINDS.map((k) => [k, 1])) as Record<FaultKind, number>;

export interface InjectedFault {
  kind: FaultKind;
  method: string;
  /** Path with its query, as the client asked. */
  path: string;
  /** Sequence number of the request among the service requests the proxy saw (from 1). */
  request: number;
  /** For `delay`: how long the request was held; for `status-429`: the Retry-After seconds sent. */
  delayMs?: number;
  retryAfterSeconds?: number;
  /** What the `label` option made of the request (e.g. the phone number a batch's CSV calls). */
  label?: string;
  at: number;
}

export interface FaultProxyOptions {
  /** The sandbox's base URL (http://127.0.0.1:port). */
  target: string;
  seed: number;
  /** Share of service requests that get a fault, 0 to 1 (default 0.2). Changeable later with setRate. */
  rate?: number;
  mix?: FaultMix;
  /** Range of a `delay` fault in ms (default 1–4 s: seconds, under the client's 15 s timeout). */
  delayMs?: readonly [number, number];
  /** Range of the Retry-After seconds of a 429 (default 1–2). */
  retryAfterSeconds?: readonly [number, number];
  port?: number;
  /** Names a request for the log, from its method, path and body (e.g. the number a POST /batches calls). */
  label?: (method: string, path: string, body: Buffer) => string | undefined;
}

export interface FaultProxy {
  url: string;
  /** Every fault injected, in order. */
  readonly log: readonly InjectedFault[];
  /** Service requests the proxy received (faulted or not; not the test controls or preflights). */
  readonly requests: number;
  setRate(rate: number): void;
  /** Faults injected, by kind (every kind present, 0 when none). */
  countByKind(): Record<FaultKind, number>;
  close(): Promise<void>;
}

/** mulberry32: a small, fast PRNG with a 32-bit seed; good enough to pick faults reproducibly. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FaultChoice {
  kind: FaultKind;
  delayMs?: number;
  retryAfterSeconds?: number;
}

/**
 * The fault for one request, or null. Always draws the same number of values, so one request's
 * choice never shifts the next one's when the rate or mix changes.
 */
export function chooseFault(
  random: () => number,
  rate: number,
  mix: FaultMix = DEFAULT_MIX,
  delayRange: readonly [number, number] = [1000, 4000],
  retryRange: readonly [number, number] = [1, 2],
): FaultChoice | null {
  const hit = random();
  const which = random();
  const extra = random();
  if (hit >= rate) return null;
  const weights = FAULT_KINDS.map((k) => Math.max(0, mix[k] ?? 0));
  const total = weights.reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  let target = which * total;
  let kind: FaultKind = FAULT_KINDS[FAULT_KINDS.length - 1]!;
  for (let i = 0; i < FAULT_KINDS.length; i++) {
    if (target < weights[i]!) {
      kind = FAULT_KINDS[i]!;
      break;
    }
    target -= weights[i]!;
  }
  if (kind === 'delay') return { kind, delayMs: Math.round(delayRange[0] + extra * (delayRange[1] - delayRange[0])) };
  if (kind === 'status-429') return { kind, retryAfterSeconds: Math.round(retryRange[0] + extra * (retryRange[1] - retryRange[0])) };
  return { kind };
}

/** The sandbox's own test controls are not service requests: never faulted. */
export const isControlPath = (path: string) => /^\/+__sandbox(\/|$|\?)/.test(path);

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function forwardHeaders(headers: IncomingHttpHeaders, host: string): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  out.host = host;
  return out;
}

const STATUS_TEXT: Record<number, string> = { 429: 'Too many requests (injected by the fault proxy)', 502: 'Bad gateway', 503: 'Service unavailable', 504: 'Gateway timeout' };

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const random = seededRandom(options.seed);
  const mix = options.mix ?? DEFAULT_MIX;
  let rate = options.rate ?? 0.2;
  const log: InjectedFault[] = [];
  let requests = 0;
  const pending = new Set<ReturnType<typeof setTimeout>>();

  /** Forwards the request; resolves with the sandbox's whole answer (status, headers, body). */
  function forward(req: IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: forwardHeaders(req.headers, target.host), agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });
  }

  function answer(res: ServerResponse, status: number, headers: IncomingHttpHeaders, body: Buffer): void {
    const out: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
    out['content-length'] = String(body.length);
    out.connection = 'close';
    res.writeHead(status, out);
    res.end(body);
  }

  function statusAnswer(res: ServerResponse, status: number, retryAfterSeconds?: number): void {
    const body = Buffer.from(JSON.stringify({ error: status, message: STATUS_TEXT[status] ?? 'injected fault' }));
    const headers: IncomingHttpHeaders = {
      'content-type': 'application/json',
      // As the sandbox answers: CORS on every answer, Retry-After readable by pages.
      'access-control-allow-origin': '*',
      'access-control-expose-headers': 'Retry-After, Allow, Content-Length, X-Sandbox-Speed',
    };
    if (retryAfterSeconds !== undefined) headers['retry-after'] = String(retryAfterSeconds);
    answer(res, status, headers, body);
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(timer);
        resolve();
      }, ms);
      pending.add(timer);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const method = (req.method ?? 'GET').toUpperCase();
    const path = req.url ?? '/';
    let choice: FaultChoice | null = null;
    if (!isControlPath(path) && method !== 'OPTIONS') {
      requests += 1;
      choice = chooseFault(random, rate, mix, options.delayMs, options.retryAfterSeconds);
      if (choice) {
        const label = options.label?.(method, path, body);
        log.push({ ...choice, method, path, request: requests, ...(label ? { label } : {}), at: Date.now() });
      }
    }
    switch (choice?.kind) {
      case 'status-429':
        return statusAnswer(res, 429, choice.retryAfterSeconds);
      case 'status-502':
      case 'status-503':
      case 'status-504':
        return statusAnswer(res, Number(choice.kind.slice(-3)));
      case 'drop-request':
        req.socket.destroy();
        return;
      case 'delay':
        await sleep(choice.delayMs!);
        break;
    }
    let upstream: Awaited<ReturnType<typeof forward>>;
    try {
      upstream = await forward(req, body);
    } catch {
      // The sandbox itself is gone (closing): the client sees a dropped connection.
      req.socket.destroy();
      return;
    }
    if (choice?.kind === 'drop-answer') {
      req.socket.destroy();
      return;
    }
    answer(res, upstream.status, upstream.headers, upstream.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    log,
    get requests() {
      return requests;
    },
    setRate(next: number) {
      rate = next;
    },
    countByKind() {
      const counts = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
      for (const fault of log) counts[fault.kind] += 1;
      return counts;
    },
    close() {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

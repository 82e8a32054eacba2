/**
 * A small route table instead of Hono's router, because the sandbox needs to know more than
 * "which handler": whether a path exists with another method (405), whether a route belongs to the
 * spec's or the live form (disabled routes answer a route 404), and to let one handler pass a
 * request on to the next route of the same shape (`GET /batches/:agent_id` vs `:batch_id`).
 */
import type { Context } from 'hono';
import type { HttpBindings } from '@hono/node-server';
import type { z } from '../lib/api/zod';
import type { KeyGrant } from './keys';
import type { RoutesMode, Runtime } from './runtime';
import type { Account } from './store';

export type HonoEnv = { Bindings: HttpBindings };
export type SandboxContext = Context<HonoEnv>;
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** `spec`: only the spec's form; `live`: only the live service's form; `common`: both. */
export type RouteForm = 'spec' | 'live' | 'common';
export type { RoutesMode } from './runtime';

/** Returned by a handler to pass the request on to the next matching route. */
export const NEXT = Symbol('next route');

export interface Reply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface RouteCtx {
  c: SandboxContext;
  rt: Runtime;
  url: URL;
  params: Record<string, string>;
  /** The key's account (throws on public routes, which have none). */
  account: Account;
  grant: KeyGrant;
}

export type Handler = (ctx: RouteCtx) => Reply | Response | typeof NEXT | Promise<Reply | Response | typeof NEXT>;

export interface RouteDef {
  /** `METHOD /path/:param`, unique; used by tests to prove every route is covered. */
  id: string;
  method: Method;
  path: string;
  form: RouteForm;
  /** Writes are refused (403) for a read-only key. */
  write: boolean;
  /** Public routes (presigned recordings) need no key. */
  public: boolean;
  /** Schema of the success body (null: not JSON). */
  schema: z.ZodType | null;
  handler: Handler;
  regex: RegExp;
  names: string[];
}

/** Words that are literal path segments somewhere, so never taken as an id. */
const RESERVED = new Set(['all', 'schedule', 'stop', 'delete', 'search', 'buy', 'me', 'executions', 'log']);

export function route(
  method: Method,
  path: string,
  opts: { form?: RouteForm; write?: boolean; public?: boolean; schema: z.ZodType | null },
  handler: Handler,
): RouteDef {
  const names: string[] = [];
  const pattern = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return {
    id: `${method} ${path}`,
    method,
    path,
    form: opts.form ?? 'common',
    write: opts.write ?? method !== 'GET',
    public: opts.public ?? false,
    schema: opts.schema,
    handler,
    regex: new RegExp(`^${pattern}$`),
    names,
  };
}

export function routeEnabled(def: RouteDef, mode: RoutesMode): boolean {
  return def.form === 'common' || mode === 'both' || def.form === mode;
}

export function matchPath(def: RouteDef, pathname: string): Record<string, string> | undefined {
  const m = def.regex.exec(pathname);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < def.names.length; i++) {
    let value: string;
    try {
      value = decodeURIComponent(m[i + 1]!);
    } catch {
      return undefined;
    }
    if (RESERVED.has(value.toLowerCase())) return undefined;
    params[def.names[i]!] = value;
  }
  return params;
}

export interface Resolution {
  /** Routes of this method and path, in table order. */
  matches: Array<{ def: RouteDef; params: Record<string, string> }>;
  /** Methods the path answers to (for 405 and its Allow header). */
  allow: Method[];
}

export function resolveRoute(routes: readonly RouteDef[], mode: RoutesMode, method: string, pathname: string): Resolution {
  const matches: Resolution['matches'] = [];
  const allow = new Set<Method>();
  for (const def of routes) {
    if (!routeEnabled(def, mode)) continue;
    const params = matchPath(def, pathname);
    if (!params) continue;
    allow.add(def.method);
    if (def.method === method) matches.push({ def, params });
  }
  return { matches, allow: [...allow] };
}

/** Strips a trailing slash so `/v2/agent/all/` finds `/v2/agent/all`. */
export const normalizePath = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname);

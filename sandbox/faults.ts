/**
 * Fault injection for the next N requests matching a method and a path regex (see control.ts for
 * the HTTP side). A fault can delay, answer an error status (with Retry-After), drop the
 * connection without answering, or let the route run and then drop its answer (`dropAfter`: the
 * service did the work, the client never hears of it).
 */
import { z } from '../lib/api/zod';

export const faultSpec = z.strictObject({
  method: z.string().min(1).optional(),
  path: z.string().min(1).refine((source) => {
    try {
      new RegExp(source);
      return true;
    } catch {
      return false;
    }
  }, 'path must be a valid regular expression'),
  status: z.number().int().min(100).max(599).optional(),
  count: z.number().int().positive().default(1),
  drop: z.boolean().optional(),
  /** Run the route (its effects happen), then destroy the connection instead of answering. */
  dropAfter: z.boolean().optional(),
  delayMs: z.number().int().nonnegative().max(120_000).optional(),
  retryAfter: z.number().int().nonnegative().optional(),
  /** Optional body to answer instead of `{error, message}`, e.g. the live `{detail}` form. */
  body: z.unknown().optional(),
});
export type FaultSpec = z.input<typeof faultSpec>;

export interface Fault {
  id: number;
  method?: string;
  path: string;
  regex: RegExp;
  status?: number;
  remaining: number;
  drop: boolean;
  dropAfter: boolean;
  delayMs: number;
  retryAfter?: number;
  body?: unknown;
}

export class Faults {
  private list: Fault[] = [];
  private nextId = 1;

  add(input: unknown): Fault {
    const spec = faultSpec.parse(input);
    const fault: Fault = {
      id: this.nextId++,
      method: spec.method?.toUpperCase(),
      path: spec.path,
      regex: new RegExp(spec.path),
      status: spec.status,
      remaining: spec.count,
      drop: spec.drop ?? false,
      dropAfter: spec.dropAfter ?? false,
      delayMs: spec.delayMs ?? 0,
      retryAfter: spec.retryAfter,
      body: spec.body,
    };
    this.list.push(fault);
    return fault;
  }

  /** The first armed fault matching this request, with one use consumed. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.list.find((f) => (!f.method || f.method === method.toUpperCase()) && f.regex.test(path));
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.list = this.list.filter((f) => f !== fault);
    return fault;
  }

  armed(): Array<Omit<Fault, 'regex'>> {
    return this.list.map(({ regex: _regex, ...rest }) => rest);
  }

  clear(): void {
    this.list = [];
  }
}

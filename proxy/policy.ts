/**
 * The proxy's policy file: which page origins may use it (CORS, and `frame-ancestors` for widget.html),
 * which agents, which numbers, and its rate limits. JSON, checked with zod; a bad file stops the proxy
 * with every problem named by its path in the file. Decisions answer a reason a person can act on.
 *
 * {
 *   "origins": ["https://crm.example"],
 *   "agents": ["11111111-aaaa-4aaa-8aaa-0a0000000001"],
 *   "numbers": ["+1415", "+4930XXXXXXXX"],
 *   "transcripts": true,
 *   "limits": { "tokenRequestsPerMinute": 240, "tokenCallsPerMinute": 5, "requestsPerMinute": 1200,
 *               "callsPerMinute": 30, "serviceRequestsPerMinute": 300 }
 * }
 */
import { serviceId } from '../lib/api/schemas/common';
import { z } from '../lib/zod';
import { normalOrigin } from './token';

/**
 * The service's own limit is 500 requests a minute on its tightest routes (1000 elsewhere, per
 * organisation): the proxy's calls to it stay under that, whatever the policy says.
 */
export const SERVICE_REQUESTS_PER_MINUTE_MAX = 500;

/** `+1415` (every number starting with it) or `+1415555XXXX` (X: one digit; the whole number must match). */
const NUMBER_RULE = /^\+[0-9X]*$/;

const origin = z.string().refine((text) => normalOrigin(text) !== null, {
  message: 'must be a page origin such as https://crm.example: scheme, host and port only, https (plain http only on loopback)',
});

const numberRule = z.string().refine((text) => NUMBER_RULE.test(text) && text.length <= 16, {
  message: 'must be an E.164 prefix such as +1415, or a pattern such as +1415555XXXX (X stands for one digit)',
});

const perMinute = (fallback: number, max: number, why = `at most ${max}`) => z.number().int().min(1).max(max, why).default(fallback);

export const policySchema = z.strictObject({
  origins: z.array(origin).min(1, 'list at least one page origin'),
  agents: z.array(serviceId).min(1, 'list at least one agent id'),
  numbers: z.array(numberRule).min(1, 'list at least one number prefix or pattern ("+" allows every number)'),
  /** Whether answers carry the transcript, recording and extracted data (the element decides whether to show them). */
  transcripts: z.boolean().default(true),
  limits: z
    .strictObject({
      tokenRequestsPerMinute: perMinute(240, 10_000),
      tokenCallsPerMinute: perMinute(5, 1_000),
      requestsPerMinute: perMinute(1_200, 100_000),
      callsPerMinute: perMinute(30, 10_000),
      serviceRequestsPerMinute: perMinute(300, SERVICE_REQUESTS_PER_MINUTE_MAX, `at most ${SERVICE_REQUESTS_PER_MINUTE_MAX}: under the service's own limit`),
    })
    .prefault({}),
});
export type Policy = z.infer<typeof policySchema>;

export class PolicyError extends Error {
  override name = 'PolicyError';
}

/** Parses a policy file's text; every problem is named by the file and its path inside it. */
export function parsePolicy(text: string, source = 'policy'): Policy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PolicyError(`${source}: not valid JSON (${(error as Error).message}).`);
  }
  const parsed = policySchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.length ? issue.path.join('.') : '(the file)'}: ${issue.message}`);
    throw new PolicyError(`${source}: the policy is not valid:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, origins: parsed.data.origins.map((o) => normalOrigin(o)!) };
}

export type Decision = { ok: true } | { ok: false; code: string; reason: string };

export function originAllowed(policy: Policy, requestOrigin: string | null): Decision {
  if (!requestOrigin) return { ok: false, code: 'origin-missing', reason: 'The request has no Origin: the proxy answers pages only.' };
  if (!policy.origins.includes(requestOrigin)) return { ok: false, code: 'origin-not-allowed', reason: `Pages on ${requestOrigin} may not use this proxy (not in its policy's origins).` };
  return { ok: true };
}

export function agentAllowed(policy: Policy, tokenAgents: readonly string[], agentId: string): Decision {
  if (!policy.agents.includes(agentId)) return { ok: false, code: 'agent-not-allowed', reason: `Agent ${agentId} is not in this proxy's policy.` };
  if (!tokenAgents.includes(agentId)) return { ok: false, code: 'agent-not-allowed', reason: `This widget token does not allow agent ${agentId}.` };
  return { ok: true };
}

/** Whether one rule admits the number: a prefix, or a pattern of the whole number where X is one digit. */
export function numberMatches(rule: string, number: string): boolean {
  if (!rule.includes('X')) return number.startsWith(rule);
  return rule.length === number.length && [...rule].every((c, i) => (c === 'X' ? /\d/.test(number[i]!) : c === number[i]));
}

export function numberAllowed(policy: Policy, number: string): Decision {
  if (policy.numbers.some((rule) => numberMatches(rule, number))) return { ok: true };
  return { ok: false, code: 'number-not-allowed', reason: `${number} is not among the numbers this proxy may call (${policy.numbers.join(', ')}).` };
}

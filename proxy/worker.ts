/**
 * The proxy on Cloudflare Workers: the same app (app.ts) and the same placements core. No timer runs
 * between requests there, so a widget's read runs its call's due step. Configuration comes from the
 * Worker's environment: the key, the service's address and the token secret as secrets, the policy
 * as a JSON text variable (VOICE_AGENT_PROXY_POLICY). The audit log goes to the console (Workers Logs).
 *
 * Calls live in the isolate's memory, like the Node process's: see docs/proxy.md on what that means there.
 */
import en from '../public/_locales/en/messages.json';
import { useCatalogues } from '../lib/i18n';
import { createProxyApp } from './app';
import { consoleAudit } from './audit';
import { readConfig } from './config';
import { WidgetPlacements } from './placements';
import { parsePolicy } from './policy';
import { serviceClient } from './service';

useCatalogues(en);

// Not exported: a Worker module's named exports must be handlers (workerd refuses anything else).
const POLICY_VAR = 'VOICE_AGENT_PROXY_POLICY';

type Env = Record<string, string | undefined>;

let app: { fetch: (request: Request) => Response | Promise<Response> } | null = null;
let failure: string | null = null;

function build(env: Env) {
  const config = readConfig(env);
  const text = env[POLICY_VAR];
  if (!text) throw new Error(`${POLICY_VAR} is not set: the policy file's JSON, as a text variable.`);
  const policy = parsePolicy(text, POLICY_VAR);
  const service = serviceClient({ baseUrl: config.baseUrl, apiKey: config.apiKey, perMinute: policy.limits.serviceRequestsPerMinute });
  const placements = new WidgetPlacements(service, { baseUrl: config.baseUrl, audit: consoleAudit });
  return createProxyApp({ policy, secret: config.secret, placements, advanceOnRead: true });
}

export default {
  fetch(request: Request, env: Env): Response | Promise<Response> {
    if (!app && !failure) {
      try {
        app = build(env);
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
    }
    if (!app) {
      // Said in the log in full; the page learns only that the proxy is not set up.
      console.error(`proxy: not configured: ${failure}`);
      return new Response(JSON.stringify({ error: 'The proxy is not configured.', code: 'proxy-error' }), { status: 500, headers: { 'Content-Type': 'application/json' } });
    }
    return app.fetch(request);
  },
};

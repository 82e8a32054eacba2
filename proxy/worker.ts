/**
 * The proxy on Cloudflare Workers: the same app (app.ts) and the same placements core. The calls and
 * the page rate windows live in one Durable Object (proxy/durable-calls.ts, exported here as the
 * runtime requires), so every isolate finds every call and a recycled isolate forgets nothing. The
 * object's alarm runs every due step; a widget's read also runs its call's step when due. Configuration comes
 * from the Worker's environment: the key, the service's address and the token secret as secrets, the
 * policy as a JSON text variable (VOICE_AGENT_PROXY_POLICY), the object as the WIDGET_CALLS binding.
 * The audit log goes to the console (Workers Logs).
 */
import en from '../public/_locales/en/messages.json';
import { useCatalogues } from '../lib/i18n';
import { createProxyApp } from './app';
import { callsObject, readWorkerEnv, type WorkerEnv } from './durable-calls';

useCatalogues(en);

// A Worker module's named exports must be handlers or Durable Object classes (workerd refuses anything else).
export { WidgetCallsObject } from './durable-calls';

let app: { fetch: (request: Request) => Response | Promise<Response> } | null = null;
let failure: string | null = null;

function build(env: WorkerEnv) {
  const { config, policy } = readWorkerEnv(env);
  // Only the object uses the key (it alone talks to the service); the Worker checks pages.
  const calls = callsObject(env);
  return createProxyApp({ policy, secret: config.secret, placements: calls, limits: calls, advanceOnRead: true });
}

export default {
  fetch(request: Request, env: WorkerEnv): Response | Promise<Response> {
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

/** "Test connection": one authenticated call, and its outcome in plain words. */
import { isApiError, isRouteMissing } from '../api/errors';
import { checkBaseUrl } from '../settings/schema';
import type { ConnectionReport } from '../messages';
import type { ServiceClient } from './service';

/** Pure: what an error from the test call means for a person. */
export function explainConnectionError(error: unknown, origin: string, hasHostAccess: boolean): ConnectionReport {
  if (isApiError(error)) {
    if (error.status === 401) {
      return { ok: false, outcome: 'key-refused-401', message: `The service refused the API key (401 Unauthorized: ${error.message}). Check that you pasted the whole key.` };
    }
    if (error.status === 403) {
      return { ok: false, outcome: 'key-refused-403', message: `The service refused the API key (403 Forbidden: ${error.message}). The key may be revoked or lack permission.` };
    }
    if (error.kind === 'timeout') {
      return { ok: false, outcome: 'timeout', message: `${origin} did not answer in time. Check the address, or try again in a moment.` };
    }
    if (error.kind === 'network') {
      return hasHostAccess
        ? { ok: false, outcome: 'unreachable', message: `Could not reach ${origin}. Check the address and that the service (or the local sandbox) is running.` }
        : { ok: false, outcome: 'cors', message: `The browser blocked the request to ${origin} (no access permission, so cross-origin rules apply). Press Save and allow access to ${origin}.` };
    }
    return { ok: false, outcome: 'unexpected', message: `The service answered ${error.status || ''} ${error.message}`.replace(/\s+/g, ' ').trim() };
  }
  return { ok: false, outcome: 'unexpected', message: error instanceof Error ? error.message : 'The connection test failed.' };
}

export interface ConnectionDeps {
  client: (baseUrl: string) => ServiceClient;
  hasHostAccess: (origin: string) => Promise<boolean>;
}

export async function testConnection(baseUrlText: string, hasKey: boolean, deps: ConnectionDeps): Promise<ConnectionReport> {
  const checked = checkBaseUrl(baseUrlText);
  if (!checked.ok) {
    const outcome = /HTTPS/.test(checked.error) ? 'not-https' : 'bad-url';
    return { ok: false, outcome, message: checked.error };
  }
  if (!hasKey) return { ok: false, outcome: 'no-key', message: `No key is saved for ${checked.origin}: paste its API key to test it.` };
  // Loopback too: its access is asked for when it is saved, like any other origin's.
  const access = await deps.hasHostAccess(checked.origin);
  if (!access) {
    return {
      ok: false,
      outcome: 'permission-refused',
      message: `The extension has no access to ${checked.origin} yet. Press Save and choose Allow when the browser asks.`,
    };
  }
  const client = deps.client(checked.baseUrl);
  try {
    let account: string | undefined;
    try {
      const user = await client.getUser();
      account = user.name ?? user.email ?? undefined;
    } catch (error) {
      // Not every deployment has /user/me: listing agents proves the key just as well.
      if (!isRouteMissing(error)) throw error;
      await client.listAgents();
    }
    return { ok: true, outcome: 'ok', message: account ? `Connected as ${account}.` : 'Connected: the key works.', account };
  } catch (error) {
    return explainConnectionError(error, checked.origin, access);
  }
}

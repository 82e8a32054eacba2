/** "Test connection": one authenticated call, and its outcome in plain words. */
import { isApiError, isRouteMissing } from '../api/errors';
import { t } from '../i18n';
import { checkBaseUrl } from '../settings/schema';
import type { ConnectionReport } from '../messages';
import type { ServiceClient } from './service';

/** Pure: what an error from the test call means for a person. */
export function explainConnectionError(error: unknown, origin: string, hasHostAccess: boolean): ConnectionReport {
  if (isApiError(error)) {
    if (error.status === 401) {
      return { ok: false, outcome: 'key-refused-401', message: t('connection_keyRefused401', error.message) };
    }
    if (error.status === 403) {
      return { ok: false, outcome: 'key-refused-403', message: t('connection_keyRefused403', error.message) };
    }
    if (error.kind === 'timeout') {
      return { ok: false, outcome: 'timeout', message: t('connection_timeout', origin) };
    }
    if (error.kind === 'network') {
      return hasHostAccess
        ? { ok: false, outcome: 'unreachable', message: t('connection_unreachable', origin) }
        : { ok: false, outcome: 'cors', message: t('connection_cors', origin) };
    }
    return { ok: false, outcome: 'unexpected', message: (error.status ? t('connection_serviceAnsweredStatus', error.status, error.message) : t('connection_serviceAnswered', error.message)).replace(/\s+/g, ' ').trim() };
  }
  return { ok: false, outcome: 'unexpected', message: error instanceof Error ? error.message : t('connection_failed') };
}

export interface ConnectionDeps {
  client: (baseUrl: string) => ServiceClient;
  hasHostAccess: (origin: string) => Promise<boolean>;
}

export async function testConnection(baseUrlText: string, hasKey: boolean, deps: ConnectionDeps): Promise<ConnectionReport> {
  const checked = checkBaseUrl(baseUrlText);
  if (!checked.ok) {
    const outcome = checked.notHttps ? 'not-https' : 'bad-url';
    return { ok: false, outcome, message: checked.error };
  }
  if (!hasKey) return { ok: false, outcome: 'no-key', message: t('connection_noKey', checked.origin) };
  // Loopback too: its access is asked for when it is saved, like any other origin's.
  const access = await deps.hasHostAccess(checked.origin);
  if (!access) {
    return {
      ok: false,
      outcome: 'permission-refused',
      message: t('connection_noAccess', checked.origin),
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
    return { ok: true, outcome: 'ok', message: account ? t('connection_connectedAs', account) : t('connection_connected'), account };
  } catch (error) {
    return explainConnectionError(error, checked.origin, access);
  }
}

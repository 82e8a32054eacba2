/**
 * Options → "Access to web pages": no origin is granted at install, so click-to-call on pages runs
 * only where the user allows it. This asks for exactly the origins the site rules need
 * (lib/page/access.ts), from the button press itself (browsers only show the prompt for a user
 * gesture), and says plainly whether it is granted.
 */
import { useEffect, useState } from 'preact/hooks';
import { browser } from '../lib/browser';
import type { SettingsView } from '../lib/messages';
import { ALL_SITES, pageOrigins } from '../lib/page/access';
import { send } from '../lib/ui/send';
import { ErrorMessage, StatusMessage } from './Messages';

type Sites = SettingsView['sites'];
type Access = 'unknown' | 'granted' | 'missing' | 'none-needed';

async function accessFor(origins: string[]): Promise<Access> {
  if (origins.length === 0) return 'none-needed';
  try {
    return (await browser.permissions.contains({ origins })) ? 'granted' : 'missing';
  } catch {
    return 'missing';
  }
}

function describe(origins: string[]): string {
  if (origins.includes(ALL_SITES)) return 'every site';
  const hosts = [...new Set(origins.map((o) => o.replace(/^\*:\/\/(\*\.)?/, '').replace(/\/\*$/, '')))];
  return hosts.join(', ');
}

export function PageAccess() {
  const [sites, setSites] = useState<Sites | null>(null);
  const [access, setAccess] = useState<Access>('unknown');
  const [error, setError] = useState<string | null>(null);
  const origins = sites ? pageOrigins({ ...sites, countries: {} }) : [];

  useEffect(() => {
    const load = async () => {
      const reply = await send({ type: 'settings/get' });
      if (reply.ok) setSites(reply.data.sites);
    };
    void load();
    const onChanged = (changes: Record<string, unknown>, area: string) => {
      if (area === 'local' && 'settings' in changes) void load();
    };
    browser.storage.onChanged.addListener(onChanged);
    return () => browser.storage.onChanged.removeListener(onChanged);
  }, []);

  useEffect(() => {
    if (!sites) return;
    let live = true;
    void accessFor(origins).then((a) => live && setAccess(a));
    return () => void (live = false);
  }, [JSON.stringify(origins)]);

  const allow = async () => {
    setError(null);
    try {
      // Called straight from the click: the browser shows its prompt only for a user gesture.
      const granted = await browser.permissions.request({ origins });
      setAccess(granted ? 'granted' : 'missing');
      if (!granted) setError('Access was not granted: click-to-call stays off on pages until you allow it.');
    } catch (e) {
      setError(`The browser could not ask for access (${e instanceof Error ? e.message : String(e)}).`);
    }
  };

  if (!sites || access === 'unknown') return null;
  return (
    <section class="page-access" aria-labelledby="page-access-title">
      <h2 id="page-access-title">Access to web pages</h2>
      {access === 'none-needed' ? (
        <StatusMessage>Click-to-call runs on no site with these rules.</StatusMessage>
      ) : access === 'granted' ? (
        <StatusMessage>Click-to-call may run on {describe(origins)}.</StatusMessage>
      ) : (
        <>
          <p>
            To find numbers on pages, the extension needs your permission to read {describe(origins)}. Nothing is granted at
            install.
          </p>
          <button type="button" class="primary" onClick={() => void allow()}>
            Allow access
          </button>
        </>
      )}
      <ErrorMessage>{error}</ErrorMessage>
    </section>
  );
}

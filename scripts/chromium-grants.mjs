// A fresh Chromium profile in which the user has already allowed the extension some optional origins,
// for tests and `npm start` (docs/security.md: nothing is granted at install). Headless Chromium cannot
// show the permission prompt (a request for an origin not yet granted waits forever), and the extensions
// page's site-access controls (chrome.developerPrivate.addHostPermission) record a grant that Chromium
// 156 does not make active for an optional host permission (permissions.getAll stays empty). So the
// grant is written where Chromium keeps a grant the user accepted, before the first launch: the
// profile's extension preferences (granted and active explicit hosts). The extension's own code then
// runs as after an Allow: permissions.request for a granted origin answers true at once, contains is
// true, and content scripts are injected there.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Chromium's id for an unpacked extension: the SHA-256 of its absolute path, first 32 hex digits as a–p. */
export function unpackedExtensionId(extensionDir) {
  const hex = createHash('sha256').update(realpathSync(extensionDir)).digest('hex').slice(0, 32);
  return [...hex].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

/** Records `origins` (match patterns the manifest lists as optional) as granted in a profile not yet launched. */
export function writeGrantedOrigins(profileDir, extensionDir, origins) {
  if (!origins.length) return;
  const dir = join(profileDir, 'Default');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'Secure Preferences');
  const prefs = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const id = unpackedExtensionId(extensionDir);
  const settings = (((prefs.extensions ??= {}).settings ??= {})[id] ??= {});
  for (const key of ['granted_permissions', 'active_permissions']) {
    const set = (settings[key] ??= {});
    set.explicit_host = [...new Set([...(set.explicit_host ?? []), ...origins])];
  }
  writeFileSync(file, JSON.stringify(prefs));
}

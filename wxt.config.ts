import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';
import { libphonenumberRegExpMemo } from './lib/phone/libphonenumber-plugin';

// The gecko id is fixed so Firefox tests can map it to a known moz-extension:// UUID.
export const GECKO_ID = 'click-to-call@voice-agent.test';

/** Origins the extension may ask for: any HTTPS service, and the local sandbox over plain HTTP. */
export const LOOPBACK_ORIGINS = ['http://127.0.0.1/*', 'http://localhost/*'];
/** Every http(s) page: asked for when the user turns click-to-call on for all sites (listed sites ask for their own). */
export const ALL_PAGES = '*://*/*';
const OPTIONAL_ORIGINS = ['https://*/*', ...LOOPBACK_ORIGINS, ALL_PAGES];

/**
 * The oldest browsers the code runs in, set by the newest API it needs (tests/unit/release checks the built manifests).
 * Chrome 116: `sidePanel.open()` (the side panel itself is 114, `storage.session` 102).
 * Firefox 140 (Android 142): the manifest's `gecko.data_collection_permissions`, which AMO requires;
 * the newest API the code uses there is `storage.session` (115).
 */
export const MINIMUM_CHROME_VERSION = '116';
export const GECKO_MIN_VERSION = '140.0';
export const GECKO_ANDROID_MIN_VERSION = '142.0';

export default defineConfig({
  // The RegExp memo: see lib/phone/matches-entirely.ts (about a tenth off the page scan).
  vite: () => ({ plugins: [preact(), libphonenumberRegExpMemo()] }),
  // `npm run zip`: Chrome and Firefox packages in .output/, and for Firefox review the sources that
  // build them (README's build commands, from a clean checkout): no tests, results or benches.
  zip: {
    excludeSources: ['tests/**', 'test-results/**', 'playwright-report/**', 'bench/**', '**/*.log', 'vitest.config.ts', 'playwright.config.ts'],
  },
  hooks: {
    // The content script is registered at run time (registration: 'runtime') and WXT makes its
    // matches (every page) a required host permission: every site granted at install. Pages are
    // optional instead (ALL_PAGES above), asked for when the user turns click-to-call on
    // (docs/security.md); the script is registered only for origins the user granted.
    'build:manifestGenerated': (_wxt, manifest) => {
      delete manifest.host_permissions;
      if (manifest.manifest_version === 2) manifest.permissions = (manifest.permissions ?? []).filter((p) => !p.includes('://') && p !== '<all_urls>');
    },
  },
  manifest: ({ browser, manifestVersion }) => ({
    // From public/_locales (lib/i18n.ts reads the same catalogues).
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    ...(browser === 'firefox' ? {} : { minimum_chrome_version: MINIMUM_CHROME_VERSION }),
    permissions: [
      'storage',
      'alarms',
      'notifications',
      'contextMenus',
      ...(browser === 'firefox' ? [] : ['sidePanel']),
      // Registers the content script only where click-to-call is on (MV2 Firefox: contentScripts, no
      // permission) and injects it into open pages of a site switched on (every build: in Firefox MV2
      // only scripting reaches blob: frames).
      'scripting',
    ],
    // Nothing is granted at install. The service's origin is asked for when the user saves it
    // (loopback patterns carry no port: one grant covers every local port); pages' origins when the
    // user turns click-to-call on (all of them, or the listed sites').
    optional_host_permissions: OPTIONAL_ORIGINS,
    // WXT drops optional_host_permissions from MV2 manifests; MV2 declares optional origins here.
    ...(manifestVersion === 2 ? { optional_permissions: OPTIONAL_ORIGINS } : {}),
    commands: {
      'call-selection': {
        suggested_key: { default: 'Alt+Shift+K' },
        description: '__MSG_commandCallSelection__',
      },
    },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: GECKO_ID,
              strict_min_version: GECKO_MIN_VERSION,
              data_collection_permissions: { required: ['none'] },
            },
            gecko_android: { strict_min_version: GECKO_ANDROID_MIN_VERSION },
          },
        }
      : {}),
  }),
});

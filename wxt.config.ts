import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';
import { libphonenumberRegExpMemo } from './lib/phone/libphonenumber-plugin';

// The gecko id is fixed so Firefox tests can map it to a known moz-extension:// UUID.
export const GECKO_ID = 'click-to-call@voice-agent.test';

/** Origins the extension may ask for: any HTTPS service, and the local sandbox over plain HTTP. */
export const LOOPBACK_ORIGINS = ['http://127.0.0.1/*', 'http://localhost/*'];
const OPTIONAL_ORIGINS = ['https://*/*', ...LOOPBACK_ORIGINS];

export default defineConfig({
  // The RegExp memo: see lib/phone/matches-entirely.ts (about a tenth off the page scan).
  vite: () => ({ plugins: [preact(), libphonenumberRegExpMemo()] }),
  manifest: ({ browser, manifestVersion }) => ({
    name: 'Voice Agent Click-to-Call',
    description: 'Dial numbers with your voice AI agents through single-call batches and watch each call.',
    permissions: [
      'storage',
      'alarms',
      'notifications',
      'contextMenus',
      ...(browser === 'firefox' ? [] : ['sidePanel']),
      // Registers the content script only where click-to-call is on (MV2 Firefox: contentScripts, no permission).
      ...(manifestVersion === 3 ? ['scripting'] : []),
    ],
    // The service's origin is asked for when the user saves it (loopback patterns carry no port: one
    // grant covers every local port). The content script is registered at run time, and WXT makes its
    // matches (every http(s) page) a required host permission, which covers loopback too.
    optional_host_permissions: OPTIONAL_ORIGINS,
    // WXT drops optional_host_permissions from MV2 manifests; MV2 declares optional origins here.
    ...(manifestVersion === 2 ? { optional_permissions: OPTIONAL_ORIGINS } : {}),
    commands: {
      'call-selection': {
        suggested_key: { default: 'Alt+Shift+K' },
        description: 'Call the selected phone number',
      },
    },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: GECKO_ID,
              strict_min_version: '128.0',
              data_collection_permissions: { required: ['none'] },
            },
            gecko_android: { strict_min_version: '128.0' },
          },
        }
      : {}),
  }),
});

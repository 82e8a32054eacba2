// Loaded in the main process, where Vitest's reporter needs Map.groupBy (missing on Node 20).
import './tests/setup/node-polyfills';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import preact from '@preact/preset-vite';
import { libphonenumberRegExpMemo } from './lib/phone/libphonenumber-plugin';

export default defineConfig({
  // WxtVitest fakes `browser`; it does not apply wxt.config's Vite plugins, so Preact is added here.
  // The extension build's libphonenumber-js RegExp memo, so unit tests run the code that ships;
  // libphonenumber-js is inlined (transformed by Vite) for the plugin to reach its modules.
  plugins: [WxtVitest(), preact(), libphonenumberRegExpMemo()],
  test: {
    server: { deps: { inline: [/libphonenumber-js/] } },
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    // Node has no IndexedDB: an in-memory one for the data and key stores (lib/idb.ts).
    setupFiles: ['tests/setup/fake-indexeddb.ts', 'tests/setup/i18n.ts', 'tests/setup/worker-memory.ts'],
    environment: 'node',
    // Vitest's default on two cores is one worker; many files mostly wait on a real sandbox (the fault
    // table, the command line's runs), so a second worker overlaps that waiting with other files' work.
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

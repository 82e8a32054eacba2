// Loaded in the main process, where Vitest's reporter needs Map.groupBy (missing on Node 20).
import './tests/setup/node-polyfills';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import preact from '@preact/preset-vite';

export default defineConfig({
  // WxtVitest fakes `browser`; it does not apply wxt.config's Vite plugins, so Preact is added here.
  plugins: [WxtVitest(), preact()],
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

import { defineConfig } from '@playwright/test';

// Each test launches its own Chromium with the production build loaded; two cores, so one worker.
export default defineConfig({
  testDir: 'tests/e2e',
  workers: 1,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: [['list'], ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ?? 'test-results/playwright.json' }]],
  use: { trace: 'off' },
});

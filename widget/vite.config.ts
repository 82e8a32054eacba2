/**
 * The widget's own builds (`npm run build:widget`, scripts/build-widget.mjs): the element as one
 * standalone script, then widget.html (the CRM shell), into .output/widget/. The `?widget` JSON
 * imports cut the extension's catalogues down to the keys the widget shows.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';
import { WIDGET_KEYS } from './keys';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = resolve(ROOT, '.output/widget');

function widgetCatalogue(): Plugin {
  return {
    name: 'widget-catalogue',
    enforce: 'pre',
    resolveId(id, importer) {
      if (!id.endsWith('.json?widget')) return null;
      // Not ending in .json: the JSON plugin must leave it to `load` below.
      return '\0widget-catalogue:' + resolve(importer ? resolve(importer, '..') : ROOT, id.slice(0, -'?widget'.length)) + '.js';
    },
    load(id) {
      if (!id.startsWith('\0widget-catalogue:')) return null;
      const all = JSON.parse(readFileSync(id.slice('\0widget-catalogue:'.length, -'.js'.length), 'utf8')) as Record<string, { message: string; placeholders?: unknown }>;
      const kept = Object.fromEntries(Object.entries(all).filter(([key]) => WIDGET_KEYS.test(key)).map(([key, entry]) => [key, { message: entry.message, ...(entry.placeholders ? { placeholders: entry.placeholders } : {}) }]));
      return `export default ${JSON.stringify(kept)};`;
    },
  };
}

export default defineConfig(({ mode }) => ({
  root: resolve(ROOT, 'widget'),
  base: './',
  plugins: [widgetCatalogue(), preact()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  logLevel: 'warn',
  build:
    mode === 'element'
      ? {
          outDir: OUT,
          emptyOutDir: true,
          lib: { entry: resolve(ROOT, 'widget/voice-agent-call.ts'), formats: ['iife'], name: 'VoiceAgentCallBundle', fileName: () => 'voice-agent-call.js' },
        }
      : {
          outDir: OUT,
          emptyOutDir: false,
          // Relative: widget.html works wherever it is hosted (a sub-path of the proxy, a test server).
          rollupOptions: { input: { widget: resolve(ROOT, 'widget/widget.html') } },
        },
}));

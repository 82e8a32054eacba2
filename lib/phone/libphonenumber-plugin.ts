/**
 * Vite plugin: libphonenumber-js's `matchesEntirely` helper resolves to ./matches-entirely.ts, which
 * compiles each metadata pattern once instead of on every call. Build-time only.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

export const MATCHES_ENTIRELY_REPLACEMENT = fileURLToPath(new URL('./matches-entirely.ts', import.meta.url));

export function isLibphonenumberMatchesEntirely(source: string, importer: string | undefined): boolean {
  return importer !== undefined && /[\\/]libphonenumber-js[\\/]/.test(importer) && /(?:^|[\\/])matchesEntirely\.js$/.test(source);
}

export function libphonenumberRegExpMemo(): Plugin {
  return {
    name: 'libphonenumber-regexp-memo',
    enforce: 'pre',
    resolveId(source, importer) {
      return isLibphonenumberMatchesEntirely(source, importer) ? MATCHES_ENTIRELY_REPLACEMENT : null;
    },
  };
}

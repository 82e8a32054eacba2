/**
 * Vite plugin: libphonenumber-js's `matchesEntirely` helper resolves to ./matches-entirely.ts, which
 * compiles each metadata pattern once instead of on every call; its ParseError to ./parse-error.ts
 * (a plain subclass of Error, cheap to throw); the library's other per-call
 * RegExps built from metadata go through ./regexp-cache.ts (see REGEXP_CALLS); and the "min" metadata
 * (only the content script loads it) loses what only formatting reads (see trimMinMetadata) and is
 * emitted as JSON.parse of a string (see metadataModule). Build-time only.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

export const MATCHES_ENTIRELY_REPLACEMENT = fileURLToPath(new URL('./matches-entirely.ts', import.meta.url));
export const PARSE_ERROR_REPLACEMENT = fileURLToPath(new URL('./parse-error.ts', import.meta.url));
const REGEXP_CACHE = fileURLToPath(new URL('./regexp-cache.ts', import.meta.url));

/**
 * libphonenumber-js modules that compile a metadata string into a flagless RegExp on every call, and
 * the exact text of each call. A library update that changes one fails the build (see cacheRegExps)
 * rather than silently losing the cache.
 */
export const REGEXP_CALLS: { file: RegExp; from: string; to: string }[] = [
  {
    // Deciding which +1 country a number belongs to: the leading digits of each, as a string to search().
    file: /[\\/]helpers[\\/]getCountryByNationalNumber\.js$/,
    from: 'nationalNumber.search(metadata.leadingDigits())',
    to: 'nationalNumber.search(cachedRegExp(metadata.leadingDigits()))',
  },
  {
    file: /[\\/]helpers[\\/]stripIddPrefix\.js$/,
    from: 'new RegExp(metadata.IDDPrefix())',
    to: 'cachedRegExp(metadata.IDDPrefix())',
  },
  {
    file: /[\\/]helpers[\\/]extractNationalNumberFromPossiblyIncompleteNumber\.js$/,
    from: "new RegExp('^(?:' + metadata.numberingPlan.nationalPrefixForParsing() + ')')",
    to: "cachedRegExp('^(?:' + metadata.numberingPlan.nationalPrefixForParsing() + ')')",
  },
];

/** The module's code with its per-call RegExps cached, or null when `id` is not one of them. Throws when a call is not where it was. */
export function cacheRegExps(code: string, id: string, cacheModule: string = REGEXP_CACHE): string | null {
  const call = REGEXP_CALLS.find((c) => c.file.test(id) && /[\\/]libphonenumber-js[\\/]/.test(id));
  if (!call) return null;
  if (!code.includes(call.from)) throw new Error(`libphonenumber-js changed: "${call.from}" is no longer in ${id} (lib/phone/libphonenumber-plugin.ts REGEXP_CALLS)`);
  return `import { cachedRegExp } from ${JSON.stringify(cacheModule)};\n${code.split(call.from).join(call.to)}`;
}

export function isLibphonenumberMatchesEntirely(source: string, importer: string | undefined): boolean {
  return importer !== undefined && /[\\/]libphonenumber-js[\\/]/.test(importer) && /(?:^|[\\/])matchesEntirely\.js$/.test(source);
}

/** libphonenumber-js's own import of its ParseError class (./parse-error.ts stands in for it). */
export function isLibphonenumberParseError(source: string, importer: string | undefined): boolean {
  return importer !== undefined && /[\\/]libphonenumber-js[\\/]/.test(importer) && /(?:^|[\\/])ParseError\.js$/.test(source);
}

type MinMetadata = { countries: Record<string, unknown[]>; nonGeographic?: Record<string, unknown[]> };

/**
 * The content script finds numbers; it never formats them. Number formats (the 5th entry of each
 * numbering plan in metadata version 4: patterns, "$1 $2" templates, leading digits) are read only
 * by formatting, AsYouType and the STRICT/EXACT grouping leniencies; the VALID leniency the finder
 * uses skips them (libphonenumber-js es6/findNumbers/Leniency.js). Dropping them saves ~9 KB gzipped
 * of the content script's 50 KB budget. tests/unit/phone/metadata-trim.test.ts checks the finder
 * finds the same with and without them.
 */
export function trimMinMetadata<T extends MinMetadata>(metadata: T): T {
  const copy = JSON.parse(JSON.stringify(metadata)) as T;
  for (const plans of [copy.countries, copy.nonGeographic ?? {}]) {
    for (const plan of Object.values(plans)) if (Array.isArray(plan[4])) plan[4] = 0;
  }
  return copy;
}

/**
 * The metadata module's code: `JSON.parse` of a raw string rather than an object literal. V8 scans a
 * string literal far faster than it parses and builds a 50 KB object literal, and JSON.parse builds
 * the object faster too: this is most of the content script's compile-and-run task on every page.
 * `String.raw` keeps the JSON's backslashes as they are (no second escaping, no bigger bundle); a
 * JSON text a raw template cannot hold falls back to the literal.
 */
export function metadataModule(metadata: unknown): string {
  const json = JSON.stringify(metadata);
  if (/`|\$\{/.test(json)) return `export default ${json}`;
  return `export default JSON.parse(String.raw\`${json}\`)`;
}

const MIN_METADATA_RE = /[\\/]libphonenumber-js[\\/]metadata\.min\.json\.js$/;

export function libphonenumberRegExpMemo(): Plugin {
  return {
    name: 'libphonenumber-regexp-memo',
    enforce: 'pre',
    resolveId(source, importer) {
      if (isLibphonenumberMatchesEntirely(source, importer)) return MATCHES_ENTIRELY_REPLACEMENT;
      return isLibphonenumberParseError(source, importer) ? PARSE_ERROR_REPLACEMENT : null;
    },
    transform(code, id) {
      const cached = cacheRegExps(code, id);
      if (cached !== null) return { code: cached, map: null };
      if (!MIN_METADATA_RE.test(id)) return null;
      const at = code.indexOf('export default ');
      const json = code.slice(at + 'export default '.length).trim().replace(/;$/, '');
      return { code: metadataModule(trimMinMetadata(JSON.parse(json) as MinMetadata)), map: null };
    },
  };
}

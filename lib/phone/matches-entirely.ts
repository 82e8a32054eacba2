/**
 * Stands in for libphonenumber-js's internal `helpers/matchesEntirely.js` (swapped in at build time
 * by ./libphonenumber-plugin.ts). The original builds `new RegExp('^(?:' + pattern + ')$')` on every
 * call, and parsing one number calls it several times with the same metadata patterns. Here each
 * pattern is compiled once. Same answers: the RegExp has no flags, so test() keeps no state.
 */
const compiled = new Map<string, RegExp>();

// Metadata holds a few thousand patterns at most; the cap only guards against a misuse.
const MAX_PATTERNS = 4096;

export default function matchesEntirely(text: string | undefined, pattern: string): boolean {
  let re = compiled.get(pattern);
  if (re === undefined) {
    if (compiled.size >= MAX_PATTERNS) compiled.clear();
    re = new RegExp('^(?:' + pattern + ')$');
    compiled.set(pattern, re);
  }
  return re.test(text || '');
}

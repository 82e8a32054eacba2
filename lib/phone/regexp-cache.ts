/**
 * Compiled regular expressions, once per source: libphonenumber-js builds some from metadata strings
 * on every call (the leading digits of each +1 country while it decides which one a number belongs
 * to, IDD and national prefixes), which was a large part of turning down a look-alike. The build
 * swaps those calls for this (./libphonenumber-plugin.ts). Only flagless RegExps: they keep no
 * state between uses (exec, test, search and replace ignore lastIndex), so sharing one is safe.
 */
const compiled = new Map<string, RegExp>();

// Metadata holds a few thousand patterns at most; the cap only guards against a misuse.
const MAX_PATTERNS = 4096;

export function cachedRegExp(source: string): RegExp {
  let re = compiled.get(source);
  if (re === undefined) {
    if (compiled.size >= MAX_PATTERNS) compiled.clear();
    re = new RegExp(source);
    compiled.set(source, re);
  }
  return re;
}

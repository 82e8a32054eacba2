/**
 * Stands in for libphonenumber-js's ParseError (swapped in at build time by
 * ./libphonenumber-plugin.ts). The library turns down every look-alike candidate by throwing one and
 * catching it (`instanceof ParseError`); its own class is Babel's wrapper around Error, built with
 * Reflect.construct and two Object.setPrototypeOf calls per error, which made throwing it a large
 * part of a page of look-alikes (bench/page-cost.ts). A native subclass: the same message (the
 * error code), name and instanceof, without the wrapper.
 */
export default class ParseError extends Error {
  constructor(code: string) {
    super(code);
    this.name = 'ParseError';
  }
}

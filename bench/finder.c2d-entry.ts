// Bundled by bench/finder.ts into an IIFE (global `C2D`): ringcentral-c2d's default matcher, as its
// RangeObserver uses it (libphonenumber-js findNumbers per text node, plus tel:/callto:/sms: links).
export { LibPhoneNumberMatcher } from 'ringcentral-c2d/matchers/LibPhoneNumberMatcher';

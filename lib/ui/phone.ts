/**
 * Typed numbers are checked by the background (libphonenumber-js with full metadata is bigger than
 * the whole popup budget). Answers are cached per (text, country); a component reading `parse`
 * re-renders when an answer arrives, and until then `parse` returns null ("Checking the number…").
 */
import { signal } from '@preact/signals';
import type { PhoneInputResult } from '../phone/normalize';
import { send } from './send';

export type PhoneParse = PhoneInputResult;
export type ParsedPhone = Extract<PhoneParse, { ok: true }>;
export type ParsePhone = (text: string, country: string) => PhoneParse | null;

const answers = new Map<string, PhoneParse>();
const asked = new Set<string>();
/** Bumped when an answer arrives, so readers re-render. */
const arrivals = signal(0);
const failed = signal(false);

const keyOf = (text: string, country: string) => `${country}\u0000${text}`;

function ask(text: string, country: string, key: string): void {
  if (asked.has(key)) return;
  asked.add(key);
  void send({ type: 'phone/parse', text: text.slice(0, 256), country }).then((reply) => {
    if (reply.ok) {
      answers.set(key, reply.data);
      failed.value = false;
      arrivals.value++;
    } else {
      // Not cached; asked again after a pause (not at once, which would loop with the re-render).
      failed.value = true;
      setTimeout(() => {
        asked.delete(key);
        arrivals.value++;
      }, 2_000);
    }
  });
}

const parse: ParsePhone = (text, country) => {
  const key = keyOf(text, country);
  const answer = answers.get(key);
  if (answer) return answer;
  ask(text, country, key);
  return null;
};

/** `parse` is stable in identity per arrival, so memoised callers recompute when an answer lands. */
export function usePhoneParser(): { parse: ParsePhone; failed: boolean; version: number } {
  const version = arrivals.value;
  return { parse, failed: failed.value, version };
}

/**
 * The phone parser (lib/phone/normalize.ts, libphonenumber-js and its metadata) is the largest piece
 * of the popup. It is loaded as its own chunk right after the first render, so the popup paints at
 * once and the parser is ready by the time a person has typed a digit.
 */
import { useEffect, useState } from 'preact/hooks';
import type { parsePhoneInput as ParsePhoneInput } from '../phone/normalize';

export type ParsePhone = typeof ParsePhoneInput;
export type PhoneParse = ReturnType<ParsePhone>;
export type ParsedPhone = Extract<PhoneParse, { ok: true }>;

let loading: Promise<ParsePhone> | null = null;

export function loadPhoneParser(): Promise<ParsePhone> {
  loading ??= import('../phone/normalize').then((m) => m.parsePhoneInput);
  return loading;
}

/** The parser once loaded (null until then, and if it cannot load: `failed` says so). */
export function usePhoneParser(): { parse: ParsePhone | null; failed: boolean } {
  const [state, setState] = useState<{ parse: ParsePhone | null; failed: boolean }>({ parse: null, failed: false });
  useEffect(() => {
    let live = true;
    loadPhoneParser().then(
      (parse) => live && setState({ parse, failed: false }),
      () => live && setState({ parse: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

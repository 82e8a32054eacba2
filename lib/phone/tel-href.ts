/**
 * What a `tel:` / `callto:` href says, before any parsing (RFC 3966 style, URL-encoded or not):
 * "tel:+1-415-555-0132;ext=12", "callto://+442079460958", "tel:%2B44%2020%207946%200958",
 * "tel:7946-0958;phone-context=+44-20". No phone library here: the page's finder sends the text to
 * the background, which reads it (./find.ts parseTelHref); a click on a link not read yet sends it
 * to the confirmation, which reads it with the site's country.
 */
export interface TelHrefText {
  /** The number to parse: the number part, with a global phone-context put before a local number. */
  text: string;
  /** The decoded number part as written ("+1-415-555-0132"). */
  raw: string;
  /** The `ext` parameter's digits, if any. */
  ext?: string;
}

const TEL_HREF_RE = /^\s*(?:tel|callto):(?:\/\/)?(.*)$/is;

/** The href's number text, or null for another scheme and for a number part with letters or too long to be a number. */
export function telHrefText(href: string): TelHrefText | null {
  const m = TEL_HREF_RE.exec(href);
  if (!m) return null;
  let body = m[1]!;
  try {
    body = decodeURIComponent(body);
  } catch {
    // Keep the undecoded text: "%" alone is not a digit, so parsing decides.
  }
  body = body.split('?')[0]!.trim();
  const [numberPart = '', ...params] = body.split(';');
  let ext: string | undefined;
  let context: string | undefined;
  for (const param of params) {
    const [k, v] = param.split('=');
    if (!k || v === undefined) continue;
    if (k.trim().toLowerCase() === 'ext') ext = v.replace(/\D/g, '') || undefined;
    if (k.trim().toLowerCase() === 'phone-context') context = v.trim();
  }
  if (numberPart.length > 64 || /[\p{L}]/u.test(numberPart.replace(/^\s*(?:e?xt|x)\b.*/i, ''))) return null;
  let text = numberPart;
  if (!text.trim().startsWith('+') && context && /^\+\d+$/.test(context.replace(/[-. ]/g, ''))) {
    text = context.replace(/[-. ]/g, '') + text;
  }
  return { text, raw: numberPart.trim(), ...(ext ? { ext } : {}) };
}

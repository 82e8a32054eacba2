/**
 * What an agent must never say: built-in shapes of card numbers and national ids, and the plan's own
 * patterns (`sensitive_patterns`). A built-in may also check what it found (Luhn for cards, mod 97
 * for IBANs) so that an order number of the right length is not taken for a card. Pure.
 */
export interface SensitivePattern {
  name: string;
  pattern: string;
  /** Regular expression flags besides `u` (always on): `i`, `m`, `s`. Absent: `i`, like every text check. */
  flags?: string;
}

interface BuiltIn extends SensitivePattern {
  /** A second look at what the pattern found (digits and letters only). */
  valid?: (found: string) => boolean;
}

/** Luhn's checksum, which every payment card number satisfies. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** ISO 13616's check: the IBAN, rearranged and read as a number, is 1 modulo 97. */
export function ibanValid(text: string): boolean {
  const s = text.toUpperCase();
  const moved = `${s.slice(4)}${s.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const ch of moved) rest = (rest * 10 + Number(ch)) % 97;
  return rest === 1;
}

export const BUILT_IN_PATTERNS: readonly BuiltIn[] = [
  // 13 to 19 digits, spaces or dashes between them allowed, passing Luhn's check.
  { name: 'card_number', pattern: String.raw`(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)`, flags: '', valid: luhn },
  // US Social Security number, written with dashes or spaces (a bare 9-digit run is too often something else).
  { name: 'us_ssn', pattern: String.raw`(?<!\d)(?!000|666|9\d\d)\d{3}[- ](?!00)\d{2}[- ](?!0000)\d{4}(?!\d)`, flags: '' },
  // UK National Insurance number: two letters, six digits, A–D.
  { name: 'uk_nino', pattern: String.raw`\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b`, flags: 'i' },
  // IBAN: country, check digits, then groups of four letters or digits (spaced or not) and a shorter tail; mod 97 checked.
  { name: 'iban', pattern: String.raw`\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b`, flags: 'i', valid: ibanValid },
];

export const BUILT_IN_NAMES = BUILT_IN_PATTERNS.map((p) => p.name);

/** `i` unless the pattern says its own flags; `u` always. */
export const regexFlags = (flags: string | undefined) => `${flags ?? 'i'}u`;

export interface Finding {
  name: string;
  text: string;
}

/** Every sensitive thing `text` holds (whitespace runs as one space), by pattern, first find of each. */
export function findSensitive(text: string, patterns: readonly (SensitivePattern & { valid?: (found: string) => boolean })[]): Finding[] {
  const spaced = text.replace(/\s+/g, ' ');
  const out: Finding[] = [];
  for (const p of patterns) {
    const re = new RegExp(p.pattern, `${regexFlags(p.flags)}g`);
    for (const m of spaced.matchAll(re)) {
      if (!p.valid || p.valid(m[0].replace(/[^A-Za-z0-9]/g, ''))) {
        out.push({ name: p.name, text: m[0] });
        break;
      }
    }
  }
  return out;
}

/** The patterns a case asks for: `true` is every built-in and every plan pattern; a list names them. */
export function patternsFor(wanted: true | readonly string[], planPatterns: readonly SensitivePattern[]): (SensitivePattern & { valid?: (found: string) => boolean })[] {
  const all = [...BUILT_IN_PATTERNS, ...planPatterns];
  return wanted === true ? all : all.filter((p) => wanted.includes(p.name));
}

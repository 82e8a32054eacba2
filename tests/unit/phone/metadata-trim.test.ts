/**
 * The extension build drops number formats from libphonenumber-js's "min" metadata (only the content
 * script loads it, and it never formats). The finder must find exactly the same with the trimmed
 * metadata: national and international forms of every country's example number, with and without
 * the national prefix, and the text of every fixture page.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getExampleNumber, getCountries, type CountryCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/examples.mobile.json';
import { parsePhoneNumberFromString, searchPhoneNumbersInText, type MetadataJson } from 'libphonenumber-js/core';
import { metadataModule, trimMinMetadata } from '../../../lib/phone/libphonenumber-plugin';

const PAGES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/pages/');
// Read from disk: vitest.config.ts applies the same build plugin, so an import would be trimmed already.
const minMetadata = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../node_modules/libphonenumber-js/metadata.min.json'), 'utf8'),
) as MetadataJson;
const trimmed = trimMinMetadata(minMetadata as unknown as { countries: Record<string, unknown[]> }) as unknown as MetadataJson;

function search(text: string, country: CountryCode, metadata: MetadataJson): string[] {
  return [...searchPhoneNumbersInText(text, { defaultCountry: country, v2: true } as never, metadata)].map(
    (m) => `${m.startsAt}-${m.endsAt} ${m.number.number}${m.number.ext ? ` x${m.number.ext}` : ''}`,
  );
}

describe('trimmed min metadata', () => {
  it('drops the formats', () => {
    expect(JSON.stringify(trimmed).length).toBeLessThan(JSON.stringify(minMetadata).length * 0.7);
  });

  it('finds and validates the same numbers for every country', () => {
    let checked = 0;
    for (const country of getCountries()) {
      const example = getExampleNumber(country, examples);
      if (!example) continue;
      const texts = [
        example.formatNational(),
        example.formatInternational(),
        example.nationalNumber as string,
        `Call ${example.formatNational()} or ${example.formatInternational()} ext. 12`,
      ];
      for (const text of texts) {
        expect(search(text, country, trimmed), `${country} ${text}`).toEqual(search(text, country, minMetadata));
        const full = parsePhoneNumberFromString(text, country, minMetadata);
        const slim = parsePhoneNumberFromString(text, country, trimmed);
        expect(slim?.number, text).toEqual(full?.number);
        expect(slim?.isValid(), text).toEqual(full?.isValid());
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(800);
  });

  it('finds the same on every fixture page, for several default countries', () => {
    for (const page of readdirSync(PAGES).filter((f) => f.endsWith('.html'))) {
      const text = readFileSync(join(PAGES, page), 'utf8').replace(/<[^>]+>/g, ' ');
      for (const country of ['US', 'GB', 'DE', 'BR', 'IN'] as CountryCode[]) {
        expect(search(text, country, trimmed), `${page} ${country}`).toEqual(search(text, country, minMetadata));
      }
    }
  });
});

describe('metadataModule: the metadata as JSON.parse of a raw string', () => {
  const evaluate = (code: string): unknown => new Function(code.replace(/^export default /, 'return '))();

  it('gives back the same object, backslashes, quotes and non-ASCII included', () => {
    for (const value of [trimmed, { p: '\\d{3}(?:\\.|-)', q: 'say "hi"', u: 'São Paulo', n: [1, 2.5, null, true] }]) {
      const code = metadataModule(value);
      expect(code.startsWith('export default JSON.parse(String.raw`')).toBe(true);
      expect(evaluate(code)).toEqual(value);
    }
  });

  it('falls back to the object literal where a raw template cannot hold the text', () => {
    for (const value of [{ a: 'back`tick' }, { a: '${x}' }]) {
      const code = metadataModule(value);
      expect(code.includes('String.raw')).toBe(false);
      expect(evaluate(code)).toEqual(value);
    }
  });
});

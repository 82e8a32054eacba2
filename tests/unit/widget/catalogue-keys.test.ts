/**
 * Every text the widget can show is in its cut of the catalogue: a key outside WIDGET_KEYS reaches a
 * host page as the bare key ("widgetProxy_unreachable" was shown so before this test).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WIDGET_KEYS } from '../../../widget/keys';

const ROOT = join(__dirname, '../../..');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : /\.tsx?$/.test(name) ? [join(dir, name)] : []));

describe('the widget’s UI text', () => {
  it('every key its own modules use is in the widget’s catalogue, in English and German', () => {
    const en = JSON.parse(readFileSync(join(ROOT, 'public/_locales/en/messages.json'), 'utf8')) as Record<string, unknown>;
    const de = JSON.parse(readFileSync(join(ROOT, 'public/_locales/de/messages.json'), 'utf8')) as Record<string, unknown>;
    const used = new Set<string>();
    for (const file of [...files(join(ROOT, 'lib/widget')), ...files(join(ROOT, 'components/widget'))]) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bt\('([A-Za-z]+_[A-Za-z0-9_]+)'/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(10);
    const outside = [...used].filter((key) => !WIDGET_KEYS.test(key));
    expect(outside).toEqual([]);
    expect([...used].filter((key) => !(key in en) || !(key in de))).toEqual([]);
  });
});

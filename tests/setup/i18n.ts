// browser.i18n is not faked in unit tests: UI text comes from the English catalogue, as in an English
// browser. Imported in a hook: lib/i18n loads the extension API, which WxtVitest fakes only after setup files load.
import { beforeAll } from 'vitest';
import en from '../../public/_locales/en/messages.json';

beforeAll(async () => {
  const { useCatalogues } = await import('../../lib/i18n');
  useCatalogues(en);
});

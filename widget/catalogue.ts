/**
 * The widget's UI text: the extension's catalogues (public/_locales), cut down at build time to the
 * keys the widget uses (widget/vite.config.ts: the `?widget` JSON imports), so a host page does not
 * load the extension's whole catalogue.
 */
import { useCatalogues, type Catalogue } from '../lib/i18n';
import de from '../public/_locales/de/messages.json?widget';
import en from '../public/_locales/en/messages.json?widget';

export function useWidgetCatalogues(lang: string): void {
  const english = en as unknown as Catalogue;
  useCatalogues(...(/^de\b/i.test(lang) ? [de as unknown as Catalogue, english] : [english]));
}

/**
 * The contact list rules with the real number parser (libphonenumber-js, max metadata). The side
 * panel loads this module only when a list is checked, so the section itself stays small.
 */
import { parsePhoneInput } from '../phone/normalize';
import { uiLocale } from '../locale';
import { previewContacts, type ContactsPreview } from './contacts';

export function checkContacts(text: string, country: string): ContactsPreview {
  return previewContacts(text, { country, parseNumber: parsePhoneInput, locale: uiLocale() });
}

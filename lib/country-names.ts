/**
 * ISO 3166-1 alpha-2 codes for the "Default country" select, common ones first, with their names
 * from `Intl.DisplayNames` in the browser's language (falling back to the code where a runtime lacks it).
 */
import { uiLocale } from './locale';

export const COMMON_COUNTRIES = ['US', 'GB', 'CA', 'AU', 'IN', 'DE', 'FR', 'ES', 'IT', 'NL', 'IE', 'BR', 'MX', 'SG', 'AE', 'ZA', 'NZ'] as const;

const ALL =
  'AD AE AF AG AI AL AM AO AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GT GU GW GY HK HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'.split(
    ' ',
  );

let names: Intl.DisplayNames | null | undefined;

/** "DE" → "Germany"; an unknown code is returned as it is. */
export function countryName(code: string): string {
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames([uiLocale(), 'en'], { type: 'region' });
    } catch {
      names = null;
    }
  }
  try {
    return names?.of(code) ?? code;
  } catch {
    return code;
  }
}

export interface CountryOption {
  code: string;
  name: string;
}

/** The common countries, then every other one sorted by name. */
export function countryOptions(): { common: CountryOption[]; others: CountryOption[] } {
  const common = COMMON_COUNTRIES.map((code) => ({ code, name: countryName(code) }));
  const others = ALL.filter((c) => !(COMMON_COUNTRIES as readonly string[]).includes(c))
    .map((code) => ({ code, name: countryName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, uiLocale()));
  return { common, others };
}

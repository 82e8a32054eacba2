/**
 * Phone numbers. Spec: `POST /phone-numbers/all`, `DELETE /phone-numbers/delete` (id in the body
 * or query). Live: `GET /phone-numbers/all`, `DELETE /phone-numbers/{id}`. Search and buy are common.
 */
import { randomUUID } from 'node:crypto';
import { actionAck, availablePhoneNumberList, phoneNumber, phoneNumberList } from '../../lib/api/schemas';
import { readFields } from '../body';
import { badRequest, notFound, required, unprocessable } from '../errors';
import { route, type RouteCtx, type RouteDef } from '../router';
import type { Account, PhoneRec } from '../store';
import { phoneWire } from '../wire';
import { E164, ack, newestFirst } from './util';

const COUNTRIES: Record<string, { code: string; area: string; locality: string; region: string; price: number }> = {
  US: { code: '1', area: '415', locality: 'San Francisco', region: 'CA', price: 1.15 },
  CA: { code: '1', area: '604', locality: 'Vancouver', region: 'BC', price: 1.3 },
  GB: { code: '44', area: '20', locality: 'London', region: 'England', price: 1.6 },
  IN: { code: '91', area: '80', locality: 'Bengaluru', region: 'KA', price: 2.4 },
  AU: { code: '61', area: '2', locality: 'Sydney', region: 'NSW', price: 3.0 },
};

const listNumbers = (account: Account) => [...account.phoneNumbers.values()].sort(newestFirst).map(phoneWire);

function findNumber(account: Account, idOrNumber: string): PhoneRec {
  const phone =
    account.phoneNumbers.get(idOrNumber) ?? [...account.phoneNumbers.values()].find((p) => p.phone_number === idOrNumber);
  if (!phone) throw notFound('Phone number');
  return phone;
}

function removeNumber(account: Account, idOrNumber: string) {
  const phone = findNumber(account, idOrNumber);
  account.phoneNumbers.delete(phone.id);
  return { body: ack('deleted') };
}

function search({ account, url }: RouteCtx) {
  const country = url.searchParams.get('country')?.trim().toUpperCase();
  if (!country) throw required('country');
  const info = COUNTRIES[country];
  if (!info) throw badRequest(`phone numbers are not available in ${country}`);
  const pattern = url.searchParams.get('pattern')?.trim() ?? '';
  if (!/^\d{0,10}$/.test(pattern)) throw badRequest('pattern must be digits');
  const provider = url.searchParams.get('provider')?.trim() || 'twilio';
  const area = pattern.length >= info.area.length ? pattern.slice(0, Math.max(info.area.length, 3)) : info.area;
  const owned = new Set([...account.phoneNumbers.values()].map((p) => p.phone_number));
  const offers = [];
  for (let i = 0; offers.length < 5 && i < 50; i++) {
    const line = String(2000 + i * 37).padStart(4, '0');
    const national = `${area}555${line}`;
    const number = `+${info.code}${national}`;
    if (owned.has(number) || !E164.test(number)) continue;
    offers.push({
      phone_number: number,
      friendly_name: info.code === '1' ? `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}` : number,
      locality: info.locality,
      region: url.searchParams.get('region')?.trim() || info.region,
      provider,
      price: info.price,
    });
  }
  return { body: offers };
}

async function buy({ c, account }: RouteCtx) {
  const fields = await readFields(c);
  const country = fields.text('country')?.trim().toUpperCase();
  const number = fields.text('phone_number')?.trim();
  if (!country) throw required('country');
  if (!number) throw required('phone_number');
  if (!E164.test(number)) throw unprocessable(`phone_number '${number}' is not an E.164 phone number`);
  if (!COUNTRIES[country]) throw badRequest(`phone numbers are not available in ${country}`);
  if ([...account.phoneNumbers.values()].some((p) => p.phone_number === number)) {
    throw badRequest(`${number} is already owned by this account`);
  }
  if (account.wallet <= 0) throw badRequest('insufficient wallet balance to buy a phone number');
  const now = Date.now();
  const phone: PhoneRec = {
    id: randomUUID(),
    phone_number: number,
    agent_id: null,
    telephony_provider: fields.text('provider')?.trim() || 'twilio',
    rented: true,
    price: COUNTRIES[country].price,
    created_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
    renewal_at: new Date(now + 30 * 86_400_000).toISOString(),
  };
  account.phoneNumbers.set(phone.id, phone);
  return { body: phoneWire(phone) };
}

export const phoneNumberRoutes: RouteDef[] = [
  route('POST', '/phone-numbers/all', { form: 'spec', write: false, schema: phoneNumberList }, ({ account }) => ({
    body: listNumbers(account),
  })),
  route('GET', '/phone-numbers/all', { form: 'live', schema: phoneNumberList }, ({ account }) => ({ body: listNumbers(account) })),
  route('GET', '/phone-numbers/search', { schema: availablePhoneNumberList }, search),
  route('POST', '/phone-numbers/buy', { schema: phoneNumber }, buy),
  route('DELETE', '/phone-numbers/delete', { form: 'spec', schema: actionAck }, async ({ c, account, url }) => {
    const fields = await readFields(c);
    const key =
      fields.text('id')?.trim() ||
      fields.text('phone_number')?.trim() ||
      url.searchParams.get('id')?.trim() ||
      url.searchParams.get('phone_number')?.trim();
    if (!key) throw required('id');
    return removeNumber(account, key);
  }),
  route('DELETE', '/phone-numbers/:phone_number_id', { form: 'live', schema: actionAck }, ({ account, params }) =>
    removeNumber(account, params.phone_number_id!),
  ),
];

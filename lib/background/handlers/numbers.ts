/** Answers the requests of lib/requests/numbers.ts. */
import type { NumberReplies } from '../../requests/numbers';
import { currentClient } from '../service';
import type { Handlers } from './types';

export const numbersHandlers: Handlers<keyof NumberReplies> = {
  'phone-numbers/owned': async () => (await currentClient()).listPhoneNumbers(),

  'phone-numbers/search': async (request) => {
    const client = await currentClient();
    return client.searchPhoneNumbers({ country: request.country, ...(request.pattern ? { pattern: request.pattern } : {}) });
  },

  'phone-numbers/buy': async (request) => {
    const client = await currentClient();
    const bought = await client.buyPhoneNumber({
      country: request.country,
      phone_number: request.phoneNumber,
      ...(request.provider ? { provider: request.provider } : {}),
    });
    return 'phone_number' in bought && typeof bought.phone_number === 'string' && 'id' in bought ? (bought as NumberReplies['phone-numbers/buy']) : null;
  },

  'phone-numbers/delete': async (request) => {
    await (await currentClient()).deletePhoneNumber(request.id);
    return null;
  },
};

/** Answers the requests of lib/requests/account.ts. */
import { ACCOUNT_UNAVAILABLE, accountView } from '../../account/balance';
import { isApiError } from '../../api/errors';
import type { AccountReplies } from '../../requests/account';
import { currentClient } from '../service';
import type { Handlers } from './types';

export const accountHandlers: Handlers<keyof AccountReplies> = {
  async 'account/get'() {
    try {
      return accountView(await (await currentClient()).getUser());
    } catch (error) {
      // The spec has no /user/me: any 404 or 405 here means the service does not offer it, not that something broke.
      if (isApiError(error) && error.kind === 'http' && (error.status === 404 || error.status === 405)) return ACCOUNT_UNAVAILABLE;
      throw error;
    }
  },
};

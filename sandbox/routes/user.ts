/** `GET /user/me` (live): the account behind the key. */
import { user } from '../../lib/api/schemas';
import { activeCalls } from '../engine';
import { route, type RouteDef } from '../router';

export const userRoutes: RouteDef[] = [
  route('GET', '/user/me', { schema: user }, ({ account }) => ({
    body: {
      id: account.id,
      name: account.name,
      email: account.email,
      wallet: account.wallet,
      concurrency: { max: account.concurrencyMax, current: activeCalls(account) },
    },
  })),
];

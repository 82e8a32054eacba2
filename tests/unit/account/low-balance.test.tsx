// @vitest-environment happy-dom
// The dial confirmation's low-balance warning: shown below $2.00, silent when the balance is fine, unknown or unreadable.
import { cleanup, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DialConfirmation } from '../../../components/calls/DialConfirmation';
import { accountView, ACCOUNT_UNAVAILABLE } from '../../../lib/account/balance';
import type { Reply } from '../../../lib/messages';
import { fail, fakeBackground, ok } from '../ui/helpers';

const number = { ok: true as const, e164: '+14155552671', national: '(415) 555-2671', international: '+1 415-555-2671', country: 'US' as const };

async function confirmWith(answer: Reply<unknown>) {
  const { requests } = fakeBackground((r) => (r.type === 'account/get' ? answer : undefined));
  render(<DialConfirmation agentName="Sales" number={number} fromNumber={null} variables={{}} busy={false} onConfirm={() => undefined} onCancel={() => undefined} />);
  await waitFor(() => expect(requests.some((r) => r.type === 'account/get')).toBe(true));
  // The reply is handled on a later turn: wait for the request's answer to have been rendered.
  await new Promise((resolve) => setTimeout(resolve, 0));
}

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

describe('LowBalanceWarning in the dial confirmation', () => {
  it('warns below $2.00, naming the balance and the threshold', async () => {
    await confirmWith(ok(accountView({ wallet: 1.5 })));
    const warning = await screen.findByText(/Low balance/);
    expect(warning.textContent).toContain('$1.50');
    expect(warning.textContent).toContain('$2.00');
  });

  it.each([
    ['a funded wallet', ok(accountView({ wallet: 2 }))],
    ['a service without /user/me', ok(ACCOUNT_UNAVAILABLE)],
    ['an answer without a wallet', ok(accountView({}))],
    ['a failed read', fail('Network error')],
  ])('says nothing for %s', async (_what, answer) => {
    await confirmWith(answer);
    await waitFor(() => expect(screen.getByRole('dialog')).toBeTruthy());
    expect(screen.queryByText(/Low balance/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

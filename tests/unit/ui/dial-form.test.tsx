// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DialForm } from '../../../components/calls/DialForm';
import { earliestScheduledAt, liveStartTime } from '../../../lib/api/schedule';
import type { UiRequest } from '../../../lib/messages';
import { formatClock } from '../../../lib/ui/format';
import { AGENT_ID, agentsCache, callRecord, fail, fakeBackground, ok, keyState, renderWithStore, seedData } from './helpers';

function background(overrides: Partial<Record<UiRequest['type'], (r: UiRequest) => unknown>> = {}) {
  return fakeBackground((request) => {
    const custom = overrides[request.type];
    if (custom) return custom(request) as never;
    switch (request.type) {
      case 'agents/list':
        return ok({ ...agentsCache(), refreshError: null });
      case 'phone-numbers/list':
        return ok([{ id: 'pn1', phoneNumber: '+14155550000', agentId: null }]);
      case 'call/dial':
        return ok({ callId: 'call-9' });
      default:
        return fail(`unexpected ${request.type}`);
    }
  });
}

const phone = () => screen.getByLabelText('Phone number') as HTMLInputElement;
const callButton = () => screen.getByRole('button', { name: 'Call' }) as HTMLButtonElement;
const typeNumber = (text: string) => fireEvent.input(phone(), { target: { value: text } });

beforeEach(async () => {
  fakeBrowser.reset();
  await fakeBrowser.storage.local.set({
    settings: { version: 1, baseUrl: 'http://127.0.0.1:8787', defaultCountry: 'US', rememberKey: true, sites: { mode: 'everywhere', listed: [], paused: [], countries: {} } },
  });
  await seedData({
    'ui.keyState': keyState(true),
    'agents.cache': agentsCache([
      { id: AGENT_ID, name: 'Sales qualifier', status: 'processed', manual: false },
      { id: 'agent-2', name: 'Support triage', status: 'processed', manual: false },
    ]),
  });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('DialForm', () => {
  it('keeps Call disabled until an agent is chosen and the number is valid', async () => {
    background();
    await renderWithStore(<DialForm onDialled={() => {}} />);
    const agent = screen.getByLabelText('Agent') as HTMLSelectElement;
    expect(agent.value).toBe('');
    expect(callButton().disabled).toBe(true);

    typeNumber('(415) 555-0132');
    await screen.findByText(/\+1 415 555 0132/);
    expect(callButton().disabled).toBe(true);

    fireEvent.change(agent, { target: { value: AGENT_ID } });
    await waitFor(() => expect(callButton().disabled).toBe(false));

    typeNumber('415');
    await waitFor(() => expect(callButton().disabled).toBe(true));
  });

  it('shows an inline error for an invalid number and keeps what was typed', async () => {
    background();
    await renderWithStore(<DialForm prefill={{ agentId: AGENT_ID }} onDialled={() => {}} />);
    typeNumber('+1 555 12');
    fireEvent.blur(phone());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/\S/);
    expect(phone().value).toBe('+1 555 12');
    expect(phone().getAttribute('aria-invalid')).toBe('true');
    expect(callButton().disabled).toBe(true);
  });

  it('confirms with the agent, the number, and when the call will really start', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-21T12:03:00Z'));
    background();
    await renderWithStore(<DialForm onDialled={() => {}} />);
    fireEvent.change(screen.getByLabelText('Agent'), { target: { value: AGENT_ID } });
    typeNumber('415 555 0132');
    await waitFor(() => expect(callButton().disabled).toBe(false));
    fireEvent.click(callButton());

    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Sales qualifier');
    expect(dialog.textContent).toContain('+1 415 555 0132');
    expect(dialog.textContent).toContain('+14155550132');
    expect(dialog.textContent).toContain('Any number (service default)');
    const earliest = earliestScheduledAt(new Date('2026-11-21T12:03:00Z'));
    expect(dialog.textContent).toContain(formatClock(earliest.getTime()));
    expect(dialog.textContent).toContain('in about 2 minutes');
    expect(dialog.textContent).toContain(
      `The hosted service starts batches at the next 10-minute mark: about ${formatClock(liveStartTime(earliest).getTime())}`,
    );
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('sends call/dial with the E.164 number, from number and variables, then reports the call id', async () => {
    const { requests } = background();
    const onDialled = vi.fn();
    await renderWithStore(<DialForm prefill={{ agentId: AGENT_ID }} onDialled={onDialled} />);
    typeNumber('415 555 0132');
    await screen.findByRole('option', { name: '+14155550000' });
    fireEvent.change(screen.getByLabelText('From number'), { target: { value: '+14155550000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    fireEvent.input(screen.getByLabelText('Name of variable 1'), { target: { value: 'first_name' } });
    fireEvent.input(screen.getByLabelText('Value of variable 1'), { target: { value: 'Ada' } });
    await waitFor(() => expect(callButton().disabled).toBe(false));
    fireEvent.click(callButton());
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    });
    await waitFor(() => expect(onDialled).toHaveBeenCalledWith('call-9'));
    expect(requests.find((r) => r.type === 'call/dial')).toEqual({
      type: 'call/dial',
      dialId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      agentId: AGENT_ID,
      toNumber: '+14155550132',
      fromNumber: '+14155550000',
      variables: { first_name: 'Ada' },
    });
  });

  const dials = (requests: UiRequest[]) => requests.filter((r): r is Extract<UiRequest, { type: 'call/dial' }> => r.type === 'call/dial');
  const confirmWith = async (name: string) => {
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name }));
    });
  };

  it('one intent, one dial id: Confirm again after a lost answer sends the same id; another number gets a new one', async () => {
    let answers = 0;
    const { requests } = background({
      'call/dial': () => (answers++ === 0 ? { ok: false, error: { message: 'The extension’s background did not answer.', kind: 'no-answer' } } : ok({ callId: 'call-9' })),
    });
    const onDialled = vi.fn();
    await renderWithStore(<DialForm prefill={{ agentId: AGENT_ID }} onDialled={onDialled} />);
    typeNumber('415 555 0132');
    await waitFor(() => expect(callButton().disabled).toBe(false));
    fireEvent.click(callButton());
    await confirmWith('Confirm');
    await screen.findByText(/did not answer/);
    fireEvent.click(callButton());
    await confirmWith('Confirm');
    await waitFor(() => expect(onDialled).toHaveBeenCalledWith('call-9'));
    const [first, second] = dials(requests);
    expect(second!.dialId).toBe(first!.dialId);

    // A changed number is another intent: a new id.
    typeNumber('415 555 0199');
    await waitFor(() => expect(callButton().disabled).toBe(false));
    fireEvent.click(callButton());
    await confirmWith('Confirm');
    await waitFor(() => expect(dials(requests)).toHaveLength(3));
    expect(dials(requests)[2]!.dialId).not.toBe(first!.dialId);
  });

  it('a number with a call in progress asks first, and "Call again" says the user chose it', async () => {
    await seedData({ calls: { version: 2, calls: [callRecord({ id: 'live-1', toNumber: '+14155550132', step: 'tracking' })] } });
    const { requests } = background();
    const onDialled = vi.fn();
    await renderWithStore(<DialForm prefill={{ agentId: AGENT_ID }} onDialled={onDialled} />);
    typeNumber('415 555 0132');
    await waitFor(() => expect(callButton().disabled).toBe(false));
    fireEvent.click(callButton());
    expect((await screen.findByRole('alert')).textContent).toBe('A call to +1 415 555 0132 is in progress — call again?');
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
    await confirmWith('Call again');
    await waitFor(() => expect(onDialled).toHaveBeenCalled());
    expect(dials(requests)[0]).toMatchObject({ again: true, toNumber: '+14155550132' });
  });

  it('a finished call to the number does not ask; a refusal from the background (another window) asks in place', async () => {
    await seedData({ calls: { version: 2, calls: [callRecord({ id: 'old-1', toNumber: '+14155550132', step: 'finished' })] } });
    let answers = 0;
    const { requests } = background({
      'call/dial': () =>
        answers++ === 0 ? { ok: false, error: { message: 'A call to +14155550132 is in progress — call again?', kind: 'active-call' } } : ok({ callId: 'call-9' }),
    });
    const onDialled = vi.fn();
    await renderWithStore(<DialForm prefill={{ agentId: AGENT_ID }} onDialled={onDialled} />);
    typeNumber('415 555 0132');
    await waitFor(() => expect(callButton().disabled).toBe(false));
    fireEvent.click(callButton());
    await confirmWith('Confirm');
    expect((await screen.findByRole('alert')).textContent).toMatch(/is in progress — call again\?/);
    expect(onDialled).not.toHaveBeenCalled();
    await confirmWith('Call again');
    await waitFor(() => expect(onDialled).toHaveBeenCalledWith('call-9'));
    const [first, second] = dials(requests);
    expect(first!.again).toBeUndefined();
    expect(second).toMatchObject({ again: true, dialId: first!.dialId });
  });

  it('keeps the form and shows the message when the dial fails', async () => {
    background({ 'call/dial': () => fail('The phone number is not verified for trial accounts.', 422) });
    const onDialled = vi.fn();
    await renderWithStore(<DialForm prefill={{ agentId: AGENT_ID }} onDialled={onDialled} />);
    typeNumber('+44 20 7946 0958');
    await waitFor(() => expect(callButton().disabled).toBe(false));
    fireEvent.click(callButton());
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The phone number is not verified for trial accounts.');
    expect(onDialled).not.toHaveBeenCalled();
    expect(phone().value).toBe('+44 20 7946 0958');
    expect((screen.getByLabelText('Agent') as HTMLSelectElement).value).toBe(AGENT_ID);
    expect(callButton().disabled).toBe(false);
  });

  it('refuses bad variable names inline', async () => {
    background();
    await renderWithStore(<DialForm prefill={{ agentId: AGENT_ID, toNumber: '+14155550132' }} onDialled={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    fireEvent.input(screen.getByLabelText('Name of variable 1'), { target: { value: '1st name' } });
    expect((await screen.findByRole('alert')).textContent).toContain('must start with a letter');
    expect(callButton().disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /Remove variable 1/ }));
    await waitFor(() => expect(callButton().disabled).toBe(false));
  });

  it('opens the confirmation at once for a prefilled number and agent (popup.html?dial=…)', async () => {
    background();
    await renderWithStore(<DialForm prefill={{ agentId: 'agent-2', toNumber: '+14155550132' }} confirmAtOnce onDialled={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Support triage');
    expect(dialog.textContent).toContain('+14155550132');
  });

  it('refreshes the agent list behind the cached one', async () => {
    const { requests } = background();
    await renderWithStore(<DialForm onDialled={() => {}} />);
    expect(screen.getByRole('option', { name: 'Sales qualifier' })).toBeTruthy();
    await waitFor(() => expect(requests).toContainEqual({ type: 'agents/list', refresh: true }));
  });

  it('offers Add agent when the service cannot list agents, and shows its error', async () => {
    await seedData({ 'agents.cache': agentsCache([], { listRouteMissing: true }) });
    background({ 'agents/add-by-id': () => fail('No agent with that id.', 404), 'agents/list': () => ok({ ...agentsCache([], { listRouteMissing: true }), refreshError: null }) });
    await renderWithStore(<DialForm onDialled={() => {}} />);
    fireEvent.input(screen.getByLabelText('Agent id'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add agent' }));
    expect((await screen.findByRole('alert')).textContent).toContain('No agent with that id.');
    expect((screen.getByLabelText('Agent id') as HTMLInputElement).value).toBe('nope');
  });
});

// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsApp } from '../../../entrypoints/options/App';
import { dialRequest, PopupApp } from '../../../entrypoints/popup/App';
import { SidePanelApp } from '../../../entrypoints/sidepanel/App';
import type { UiRequest } from '../../../lib/messages';
import { AGENT_ID, agentsCache, callRecord, execution, fail, fakeBackground, ok, keyState, renderWithStore, seedData } from './helpers';

function background(extra: (r: UiRequest) => unknown = () => undefined) {
  return fakeBackground((request) => {
    const custom = extra(request);
    if (custom !== undefined) return custom as never;
    switch (request.type) {
      case 'agents/list':
        return ok({ ...agentsCache(), refreshError: null });
      case 'phone-numbers/list':
        return ok([]);
      case 'settings/get':
        return ok({ baseUrl: 'http://127.0.0.1:8787', defaultCountry: 'US', rememberKey: true, hasKey: true, keyHint: null, sites: { mode: 'everywhere', listed: [], paused: [] }, problem: null });
      default:
        return ok(null);
    }
  });
}

beforeEach(async () => {
  fakeBrowser.reset();
  await seedData({ 'ui.keyState': keyState(true), 'agents.cache': agentsCache() });
});
afterEach(cleanup);

describe('popup', () => {
  it('shows the setup form on first run', async () => {
    await seedData({ 'ui.keyState': keyState(false) });
    background();
    await renderWithStore(<PopupApp search="" />);
    expect(await screen.findByLabelText('API key')).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('renders the cached agents at once and picks the only agent', async () => {
    background();
    await renderWithStore(<PopupApp search="" />);
    expect((screen.getByLabelText('Agent') as HTMLSelectElement).value).toBe(AGENT_ID);
    expect(screen.getByRole('button', { name: 'Call' })).toBeTruthy();
  });

  it('reads ?dial=…&agent=… and opens the confirmation', async () => {
    expect(dialRequest('?dial=%2B14155550132&agent=a1')).toEqual({ toNumber: '+14155550132', agentId: 'a1' });
    expect(dialRequest('?dial=%28415%29+555-0132')).toEqual({ toNumber: '(415) 555-0132', agentId: null });
    expect(dialRequest('?dial=')).toBeNull();
    background();
    await renderWithStore(<PopupApp search={`?dial=%2B14155550132&agent=${AGENT_ID}`} />);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('+14155550132');
  });

  it('a ?dial= text that is not a number is kept in the field, as text, with the reason and no confirmation', async () => {
    background();
    await renderWithStore(<PopupApp search={`?dial=${encodeURIComponent('<img src=x onerror=alert(1)>')}&agent=${AGENT_ID}`} />);
    const field = (await screen.findByLabelText('Phone number')) as HTMLInputElement;
    expect(field.value).toBe('<img src=x onerror=alert(1)>');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!.split(' ')[1]!)?.textContent).toMatch(/\S/);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.querySelector('img')).toBeNull();
  });

  it('after Confirm shows the call as the background updates it, and opens the details', async () => {
    const { requests } = background((r) => (r.type === 'call/dial' ? ok({ callId: 'call-1' }) : undefined));
    await renderWithStore(<PopupApp search={`?dial=%2B14155550132&agent=${AGENT_ID}`} />);
    const confirm = (await screen.findByRole('button', { name: 'Confirm' })) as HTMLButtonElement;
    // A confirmation opened by a request is armed a moment after it shows (confirmation-guard.test.tsx).
    await waitFor(() => expect(confirm.disabled).toBe(false), { timeout: 5000 });
    fireEvent.click(confirm);
    expect(await screen.findByText('Starting the call…')).toBeTruthy();
    await act(async () => {
      await seedData({ calls: { version: 2, calls: [callRecord({ step: 'creating-batch', status: null, observed: [], batchId: null, scheduledAt: null })] } });
    });
    expect(await screen.findByText('Creating batch…')).toBeTruthy();
    await act(async () => {
      await seedData({ calls: { version: 2, calls: [callRecord({ status: 'ringing', observed: [{ status: 'scheduled', at: 1 }, { status: 'ringing', at: 2 }] })] } });
    });
    await waitFor(() => expect(screen.getByText('Ringing', { selector: '.call-status' })).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Open details' }));
    await waitFor(() => expect(requests).toContainEqual({ type: 'panel/open', callId: 'call-1' }));
  });

  it('lists calls still under way', async () => {
    await seedData({ calls: { version: 2, calls: [callRecord()] } });
    background();
    await renderWithStore(<PopupApp search="" />);
    const section = screen.getByRole('region', { name: 'Calls under way' });
    fireEvent.click(within(section).getByRole('button', { name: 'Show' }));
    expect(await screen.findByRole('button', { name: 'Stop call' })).toBeTruthy();
  });
});

describe('side panel', () => {
  const calls = [
    callRecord({ id: 'call-2', toNumber: '+442079460958', step: 'finished', status: 'completed', execution: execution({ transcript: 'assistant: Second call' }) }),
    callRecord({ id: 'call-1', step: 'finished', status: 'no-answer', execution: execution({ status: 'no-answer', transcript: '' }), variables: { first_name: 'Ada' } }),
  ];

  it('shows the newest call, or the one named by ?call=', async () => {
    await seedData({ calls: { version: 2, calls } });
    background();
    const first = await renderWithStore(<SidePanelApp search="" />);
    expect(screen.getByText('Second call')).toBeTruthy();
    first.unmount();
    await renderWithStore(<SidePanelApp search="?call=call-1" />);
    expect(screen.getByText(/nobody picked up/)).toBeTruthy();
  });

  it('reopens a call from History and dials again with the form prefilled', async () => {
    await seedData({ calls: { version: 2, calls } });
    background();
    await renderWithStore(<SidePanelApp search="" />);
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    const items = screen.getAllByRole('listitem');
    fireEvent.click(within(items[1]!).getByRole('button', { name: 'Open' }));
    expect(await screen.findByText(/nobody picked up/)).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    fireEvent.click(within(screen.getAllByRole('listitem')[1]!).getByRole('button', { name: 'Call again' }));
    expect((await screen.findByLabelText('Phone number') as HTMLInputElement).value).toBe('+14155550123');
    expect((screen.getByLabelText('Agent') as HTMLSelectElement).value).toBe(AGENT_ID);
    expect((screen.getByLabelText('Value of variable 1') as HTMLInputElement).value).toBe('Ada');
  });

  it('pages through an agent’s executions and opens one', async () => {
    const page = (n: number) => ({
      page_number: n,
      page_size: 20,
      total: 25,
      has_more: n === 1,
      data: [execution({ id: `exec-p${n}`, status: n === 1 ? 'completed' : 'busy', created_at: '2026-11-21T12:10:00+00:00' })],
    });
    const { requests } = background((r) => {
      if (r.type === 'executions/list') return ok(page(r.pageNumber));
      if (r.type === 'execution/get') return ok(execution({ id: r.executionId, transcript: 'assistant: From the service' }));
      return undefined;
    });
    await renderWithStore(<SidePanelApp search="" />);
    fireEvent.click(screen.getByRole('tab', { name: 'Executions' }));
    fireEvent.change(screen.getByLabelText('Agent'), { target: { value: AGENT_ID } });
    expect(await screen.findByText('Page 1 of 2')).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Completed' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('cell', { name: 'Busy' })).toBeTruthy();
    expect(requests).toContainEqual(expect.objectContaining({ type: 'executions/list', agentId: AGENT_ID, pageNumber: 2, pageSize: 20 }));
    fireEvent.click(screen.getByRole('button', { name: /Open execution of/ }));
    expect(await screen.findByText('From the service')).toBeTruthy();
    expect(requests).toContainEqual({ type: 'execution/get', executionId: 'exec-p2' });
  });

  it('shows a failed page load', async () => {
    background((r) => (r.type === 'executions/list' ? fail('Too many requests; try again in a minute.', 429) : undefined));
    await renderWithStore(<SidePanelApp search="" />);
    fireEvent.click(screen.getByRole('tab', { name: 'Executions' }));
    fireEvent.change(screen.getByLabelText('Agent'), { target: { value: AGENT_ID } });
    expect((await screen.findByRole('alert')).textContent).toContain('Too many requests');
  });
});

describe('options page', () => {
  it('has one h1, the setup form and the sites placeholder', async () => {
    background();
    await renderWithStore(<OptionsApp />);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(screen.getByLabelText('API base URL')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Sites' })).toBeTruthy();
  });
});

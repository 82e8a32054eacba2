// @vitest-environment happy-dom
// First use leads somewhere: the Calls section opens on the dial form, and an empty list says what to
// do with the button that does it (issue 22).
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { BatchList } from '../../../components/batches/BatchList';
import { CallHistory } from '../../../components/calls/CallHistory';
import { CallsSection } from '../../../components/calls/CallsSection';
import { agentsCache, callRecord, fakeBackground, ok, renderWithStore, seedData } from './helpers';
import { writeCalls } from '../../../lib/calls/history';

beforeEach(() => fakeBrowser.reset());
afterEach(cleanup);

const none = () => undefined;
const section = () => <CallsSection callId={null} onCallChange={none} focus={0} agentId="" onAgentChange={none} openExecution={none} openCall={none} />;

describe('first use', () => {
  it('the Calls section opens on the dial form when there is no call yet', async () => {
    fakeBackground(() => ok({ agents: [], refreshError: null }));
    await seedData({ 'agents.cache': agentsCache() });
    await renderWithStore(section());
    expect(await screen.findByLabelText('Phone number')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'New call', selected: true })).toBeTruthy();
    expect(screen.queryByText(/No calls yet/)).toBeNull();
  });

  it('with a call in the history (read after the first render) it opens on that call, not the form', async () => {
    fakeBackground(() => ok({ agents: [], refreshError: null }));
    await seedData({ 'agents.cache': agentsCache(), calls: writeCalls([callRecord()]) });
    await renderWithStore(section());
    expect(await screen.findByRole('tab', { name: 'Call', selected: true })).toBeTruthy();
  });
});

describe('an empty list says what to do, with the button that does it', () => {
  it('no calls: "Place a call" opens the dial form', () => {
    let dialled = 0;
    render(<CallHistory calls={[]} selectedId={null} onOpen={() => undefined} onCallAgain={() => undefined} onForget={() => undefined} onDial={() => dialled++} />);
    expect(screen.getByText('No calls yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Place a call' }));
    expect(dialled).toBe(1);
  });

  it('no batches: "Call a list" takes the user to the contact list field', () => {
    render(
      <div>
        <BatchList batches={[]} onOpen={() => undefined} />
        <input id="batch-file" type="file" aria-label="Contact list" />
      </div>,
    );
    expect(screen.getByText('This agent has no batches yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Call a list' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Contact list'));
  });
});

// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { SetupForm } from '../../../components/settings/SetupForm';
import { createUiStore, StoreContext } from '../../../lib/ui/store';
import { fail, fakeBackground, ok, keyState, renderWithStore, seedData, settingsView as view } from './helpers';


const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.input(field(label), { target: { value } });

beforeEach(() => {
  fakeBrowser.reset();
  // Access to every origin is granted unless a test says otherwise (loopback is asked for too).
  fakeBrowser.permissions.request = vi.fn().mockResolvedValue(true) as never;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('SetupForm', () => {
  it('starts with the remember switch on and explains what off means', async () => {
    fakeBackground(() => ok(view({ hasKey: false, keyHint: null })));
    await renderWithStore(<SetupForm />);
    const remember = screen.getByRole('switch', { name: 'Remember the key on this device' }) as HTMLInputElement;
    expect(remember.checked).toBe(true);
    fireEvent.change(remember, { target: { checked: false } });
    expect(await screen.findByText(/for this browser session only/)).toBeTruthy();
  });

  it('fills the sandbox address with "Local sandbox"', async () => {
    fakeBackground(() => ok(view()));
    await renderWithStore(<SetupForm />);
    type('API base URL', 'https://x.example');
    fireEvent.click(screen.getByRole('button', { name: 'Local sandbox' }));
    await waitFor(() => expect(field('API base URL').value).toBe('http://127.0.0.1:8787'));
  });

  it('validates before sending and keeps what was typed', async () => {
    const { requests } = fakeBackground(() => ok(view({ hasKey: false })));
    await renderWithStore(<SetupForm />);
    type('API base URL', 'http://api.example.com');
    type('API key', 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((a) => a.textContent).join(' ')).toContain('must use HTTPS');
    expect(alerts.map((a) => a.textContent).join(' ')).toContain('does not look like an API key');
    expect(field('API base URL').value).toBe('http://api.example.com');
    expect(field('API key').value).toBe('short');
    expect(requests.some((r) => r.type === 'settings/save')).toBe(false);
  });

  it('keeps every typed value when the save fails', async () => {
    fakeBackground((r) => (r.type === 'settings/save' ? fail('Storage is full.') : ok(view({ hasKey: false }))));
    await renderWithStore(<SetupForm />);
    type('API key', 'bn-0123456789abcdef');
    fireEvent.change(screen.getByLabelText('Default country'), { target: { value: 'GB' } });
    fireEvent.change(screen.getByRole('switch'), { target: { checked: false } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Storage is full.');
    expect(field('API base URL').value).toBe('http://127.0.0.1:8787');
    expect(field('API key').value).toBe('bn-0123456789abcdef');
    expect((screen.getByLabelText('Default country') as HTMLSelectElement).value).toBe('GB');
    expect((screen.getByRole('switch') as HTMLInputElement).checked).toBe(false);
  });

  it('saves a cleaned key and the settings, then clears the key field', async () => {
    const { requests } = fakeBackground(() => ok(view()));
    await renderWithStore(<SetupForm />);
    type('API key', '  Bearer bn-0123456789abcdef ');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/^Saved\./);
    expect(requests).toContainEqual({
      type: 'settings/save',
      baseUrl: 'http://127.0.0.1:8787',
      defaultCountry: 'US',
      rememberKey: true,
      apiKey: 'bn-0123456789abcdef',
    });
    expect(field('API key').value).toBe('');
  });

  it('asks for the service origin first, and explains a refusal without losing anything', async () => {
    const request = vi.fn().mockResolvedValue(false);
    fakeBrowser.permissions.request = request as never;
    const { requests } = fakeBackground(() => ok(view({ hasKey: false })));
    await renderWithStore(<SetupForm />);
    type('API base URL', 'https://api.voice.example/');
    type('API key', 'bn-0123456789abcdef');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(request).toHaveBeenCalledWith({ origins: ['https://api.voice.example/*'] });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The extension needs access to https://api.voice.example to reach the service; click Save again and choose Allow.',
    );
    expect(requests.some((r) => r.type === 'settings/save')).toBe(false);
    expect(field('API base URL').value).toBe('https://api.voice.example/');
    expect(field('API key').value).toBe('bn-0123456789abcdef');

    request.mockResolvedValue(true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests.some((r) => r.type === 'settings/save')).toBe(true));
  });

  it('tests the typed key and shows the report with the account', async () => {
    const { requests } = fakeBackground((r) =>
      r.type === 'connection/test' ? ok({ ok: true, outcome: 'ok', message: 'Connected.', account: 'Acme Testing' }) : ok(view({ hasKey: false })),
    );
    await renderWithStore(<SetupForm />);
    type('API key', 'bn-0123456789abcdef');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connected. Account: Acme Testing.')).toBeTruthy();
    expect(requests).toContainEqual({ type: 'connection/test', apiKey: 'bn-0123456789abcdef' });
  });

  it('shows a refused key as an error', async () => {
    fakeBackground((r) =>
      r.type === 'connection/test'
        ? ok({ ok: false, outcome: 'key-refused-403', message: 'The service refused the key (403). Check it and save again.' })
        : ok(view()),
    );
    await seedData({ 'ui.keyState': keyState(true, '••••••••wner') });
    await renderWithStore(<SetupForm />);
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByRole('alert')).textContent).toContain('refused the key (403)');
  });

  it('shows the saved key only masked, and removes it on request', async () => {
    await seedData({ 'ui.keyState': keyState(true, '••••••••wner') });
    const { requests } = fakeBackground(() => ok(view({ hasKey: false, keyHint: null })));
    await renderWithStore(<SetupForm />);
    expect(screen.getByText('••••••••wner')).toBeTruthy();
    expect(field('API key').value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Remove key' }));
    await waitFor(() => expect(requests).toContainEqual({ type: 'settings/remove-key' }));
  });

  it('asks for loopback access like any other origin (every local port), then saves', async () => {
    const request = vi.fn().mockResolvedValue(true);
    fakeBrowser.permissions.request = request as never;
    const { requests } = fakeBackground(() => ok(view({ hasKey: false, keyOrigin: null })));
    await renderWithStore(<SetupForm />);
    type('API key', 'bn-0123456789abcdef');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/^Saved\./);
    expect(request).toHaveBeenCalledWith({ origins: ['http://127.0.0.1/*'] });
    expect(requests.some((r) => r.type === 'settings/save')).toBe(true);
  });

  it('another origin with no key of its own: asks for its key or an explicit move naming both origins', async () => {
    await seedData({ 'ui.keyState': { hasKey: true, keyHint: '••••••••wner', keyOrigin: 'http://127.0.0.1:8787' } });
    const { requests } = fakeBackground(() => ok(view()));
    await renderWithStore(<SetupForm />);
    type('API base URL', 'http://127.0.0.1:9999');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByText(/The saved key is for http:\/\/127\.0\.0\.1:8787\. Paste the API key for http:\/\/127\.0\.0\.1:9999/);
    expect(alert.getAttribute('role')).toBe('alert');
    expect(requests.some((r) => r.type === 'settings/save')).toBe(false);
    expect(field('API base URL').value).toBe('http://127.0.0.1:9999');

    // Cancel keeps the form as typed and moves nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('button', { name: 'Move the key to http://127.0.0.1:9999' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const group = await screen.findByRole('group', { name: 'Move the saved key' });
    expect(group.textContent).toContain('http://127.0.0.1:8787');
    expect(group.textContent).toContain('http://127.0.0.1:9999');
    fireEvent.click(screen.getByRole('button', { name: 'Move the key to http://127.0.0.1:9999' }));
    await waitFor(() =>
      expect(requests).toContainEqual({
        type: 'settings/save',
        baseUrl: 'http://127.0.0.1:9999',
        defaultCountry: 'US',
        rememberKey: true,
        moveKeyFrom: 'http://127.0.0.1:8787',
      }),
    );
  });

  it('another origin with a typed key saves that key for it, with no move', async () => {
    await seedData({ 'ui.keyState': { hasKey: true, keyHint: '••••••••wner', keyOrigin: 'http://127.0.0.1:8787' } });
    const { requests } = fakeBackground(() => ok(view()));
    await renderWithStore(<SetupForm />);
    type('API base URL', 'http://localhost:9999');
    type('API key', 'bn-0123456789abcdef');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/^Saved\./);
    expect(requests.find((r) => r.type === 'settings/save')).toEqual({
      type: 'settings/save',
      baseUrl: 'http://localhost:9999',
      defaultCountry: 'US',
      rememberKey: true,
      apiKey: 'bn-0123456789abcdef',
    });
  });

  it('an origin that has its own saved key needs none typed', async () => {
    await seedData({ 'ui.keyState': { hasKey: true, keyHint: '••••••••wner', keyOrigin: 'http://127.0.0.1:8787' } });
    const { requests } = fakeBackground(() => ok(view({ otherKeyOrigins: ['https://api.voice.example'] })));
    await renderWithStore(<SetupForm />);
    await screen.findByText('https://api.voice.example');
    type('API base URL', 'https://api.voice.example/v2');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/^Saved\./);
    expect(requests.find((r) => r.type === 'settings/save')).not.toHaveProperty('apiKey');
    expect(requests.find((r) => r.type === 'settings/save')).not.toHaveProperty('moveKeyFrom');
  });

  it('tests a typed URL of another origin only with a key for it', async () => {
    await seedData({ 'ui.keyState': { hasKey: true, keyHint: '••••••••wner', keyOrigin: 'http://127.0.0.1:8787' } });
    const { requests } = fakeBackground(() => ok(view()));
    await renderWithStore(<SetupForm />);
    type('API base URL', 'http://127.0.0.1:9999');
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No key is saved for http://127.0.0.1:9999: paste its API key to test it.');
    expect(requests.some((r) => r.type === 'connection/test')).toBe(false);
  });

  it('says which origin the saved key is for, lists the other keys and removes one on request', async () => {
    await seedData({ 'ui.keyState': { hasKey: true, keyHint: '••••••••wner', keyOrigin: 'http://127.0.0.1:8787' } });
    const { requests } = fakeBackground((r) => (r.type === 'settings/remove-key' ? ok(view()) : ok(view({ otherKeyOrigins: ['https://api.voice.example'] }))));
    await renderWithStore(<SetupForm />);
    expect(screen.getByText(/Saved key for/).textContent).toContain('http://127.0.0.1:8787');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove the key for https://api.voice.example' }));
    await waitFor(() => expect(requests).toContainEqual({ type: 'settings/remove-key', origin: 'https://api.voice.example' }));
    await waitFor(() => expect(screen.queryByText('https://api.voice.example')).toBeNull());
  });
});

// Issue 8: the options page opens with the defaults, then the stored settings arrive. A person (or the
// Firefox smoke) typing in that window must not have the stored values land over what they typed.
describe('SetupForm and stored settings that arrive late', () => {
  const stored = { baseUrl: 'http://127.0.0.1:40123', defaultCountry: 'GB', rememberKey: false };

  it('shows no fields to type into before the first storage read, then the stored values', async () => {
    fakeBackground(() => ok(view()));
    await fakeBrowser.storage.local.set({ settings: stored });
    const store = createUiStore();
    render(
      <StoreContext.Provider value={store}>
        <SetupForm />
      </StoreContext.Provider>,
    );
    expect(store.ready.value).toBe(false);
    expect(screen.queryByLabelText('API base URL')).toBeNull();
    expect(screen.getByText('Loading…')).toBeTruthy();
    await waitFor(() => expect(field('API base URL').value).toBe(stored.baseUrl));
    expect((screen.getByLabelText('Default country') as HTMLSelectElement).value).toBe('GB');
    expect((screen.getByRole('switch') as HTMLInputElement).checked).toBe(false);
  });

  it.each([
    ['API base URL', 'https://voice-agent.example'],
    ['API base URL', ''],
  ])('a settings change rendered just before the person types into %s keeps the typed value (%j)', async (label, typed) => {
    fakeBackground(() => ok(view()));
    const { store } = await renderWithStore(<SetupForm />);
    store.settings.value = stored;
    // Let the re-render with the new settings happen, but not the effects that follow a paint.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    type(label, typed);
    await new Promise((done) => setTimeout(done, 50)); // past any effect Preact schedules after a paint
    expect(field(label).value).toBe(typed);
  });

  it('a settings change after the person edited the country and switch keeps both edits', async () => {
    fakeBackground(() => ok(view()));
    const { store } = await renderWithStore(<SetupForm />);
    fireEvent.change(screen.getByLabelText('Default country'), { target: { value: 'DE' } });
    fireEvent.change(screen.getByRole('switch'), { target: { checked: false } });
    store.settings.value = { ...stored, rememberKey: true };
    await waitFor(() => expect(field('API base URL').value).toBe(stored.baseUrl));
    expect((screen.getByLabelText('Default country') as HTMLSelectElement).value).toBe('DE');
    expect((screen.getByRole('switch') as HTMLInputElement).checked).toBe(false);
  });
});

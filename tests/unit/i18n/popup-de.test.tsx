// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import de from '../../../public/_locales/de/messages.json';
import en from '../../../public/_locales/en/messages.json';
import { PopupApp } from '../../../entrypoints/popup/App';
import { useCatalogues } from '../../../lib/i18n';
import { fail, fakeBackground, keyState, ok, renderWithStore, seedData, settingsView } from '../ui/helpers';

beforeEach(() => {
  fakeBrowser.reset();
  fakeBrowser.permissions.request = vi.fn().mockResolvedValue(true) as never;
  useCatalogues(de, en); // a German browser: de first, en for what de lacks
});
afterEach(() => {
  cleanup();
  useCatalogues(en);
});

describe('the popup in German', () => {
  it('shows its heading and first-run text in German', async () => {
    await seedData({ 'ui.keyState': keyState(false) });
    fakeBackground(() => ok(settingsView({ hasKey: false })));
    await renderWithStore(<PopupApp search="" />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Voice Agent Click-to-Call');
    expect(screen.getByText('Verbinden Sie die Erweiterung mit Ihrem Sprachagenten-Dienst, um Testanrufe zu starten.')).toBeTruthy();
    // A sentence with a link inside: the link sits where the German sentence puts it.
    const link = screen.getByRole('button', { name: 'die Einstellungsseite' });
    expect(link.parentElement!.textContent).toBe(
      'Firefox schließt dieses Fenster, wenn es nach einer Berechtigung fragt; verwenden Sie in diesem Fall die Einstellungsseite.',
    );
    expect(document.body.textContent).not.toContain('Connect the extension');
    // The first-run setup form the popup loads is German too.
    expect(await screen.findByLabelText('API-Basis-URL')).toBeTruthy();
    expect(screen.getByLabelText('API-Schlüssel')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Speichern' })).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Schlüssel auf diesem Gerät merken' })).toBeTruthy();
  });

  it("a failed save says so in German, with the service's own message inside as it was written", async () => {
    await seedData({ 'ui.keyState': keyState(false) });
    fakeBackground((r) => (r.type === 'settings/save' ? fail('Storage is full.') : ok(settingsView({ hasKey: false }))));
    await renderWithStore(<PopupApp search="" />);
    fireEvent.input(await screen.findByLabelText('API-Schlüssel'), { target: { value: 'bn-0123456789abcdef' } });
    fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Nicht gespeichert: Storage is full.');
  });
});

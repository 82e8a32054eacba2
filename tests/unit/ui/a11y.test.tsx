// @vitest-environment happy-dom
// axe-core comes with @axe-core/playwright. Colour contrast needs real layout and is left to the
// browser tests; everything else axe checks runs here on each page in its main states.
import { cleanup, fireEvent, screen } from '@testing-library/preact';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsApp } from '../../../entrypoints/options/App';
import { PopupApp } from '../../../entrypoints/popup/App';
import { SidePanelApp } from '../../../entrypoints/sidepanel/App';
import { agentsCache, callRecord, execution, fakeBackground, ok, keyState, renderWithStore, seedData, settingsView } from './helpers';

async function seriousViolations(): Promise<string[]> {
  document.documentElement.lang = 'en';
  const result = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.html.slice(0, 100)).join(' | ')}`);
}


beforeEach(async () => {
  fakeBrowser.reset();
  await seedData({
    'ui.keyState': keyState(true),
    'agents.cache': agentsCache(),
    calls: { version: 1, calls: [callRecord({ step: 'finished', status: 'completed', execution: execution() }), callRecord({ id: 'call-2' })] },
  });
  fakeBackground((r) =>
    r.type === 'agents/list'
      ? ok({ ...agentsCache(), refreshError: null })
      : r.type === 'phone-numbers/list'
        ? ok([{ id: 'n1', phoneNumber: '+14155550000', agentId: null }])
        : r.type === 'execution/log'
          ? ok({ data: [{ created_at: '2026-11-21T12:10:01+00:00', type: 'request', component: 'llm', data: 'hi' }] })
          : r.type === 'settings/get' || r.type === 'sites/update'
            ? ok(settingsView())
            : ok(null),
  );
});
afterEach(cleanup);

describe('accessibility (axe, serious and critical)', () => {
  it('popup: dial form, confirmation, call view', async () => {
    await renderWithStore(<PopupApp search="" />);
    fireEvent.click(screen.getByRole('button', { name: 'Add variable' }));
    expect(await seriousViolations()).toEqual([]);
    cleanup();
    await renderWithStore(<PopupApp search="?dial=%2B14155550132" />);
    await screen.findByRole('dialog');
    expect(await seriousViolations()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await screen.findByRole('button', { name: 'Stop call' });
    expect(await seriousViolations()).toEqual([]);
  });

  it('popup first run', async () => {
    await seedData({ 'ui.keyState': keyState(false) });
    await renderWithStore(<PopupApp search="" />);
    await screen.findByLabelText('API key');
    expect(await seriousViolations()).toEqual([]);
  });

  it('side panel: results, history, new call', async () => {
    await renderWithStore(<SidePanelApp search="" />);
    fireEvent.click(screen.getByRole('button', { name: 'Load log' }));
    await screen.findByText('hi');
    expect(await seriousViolations()).toEqual([]);
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    expect(await seriousViolations()).toEqual([]);
    fireEvent.click(screen.getByRole('tab', { name: 'New call' }));
    expect(await seriousViolations()).toEqual([]);
  });

  it('options page', async () => {
    await renderWithStore(<OptionsApp />);
    expect(await seriousViolations()).toEqual([]);
  });
});

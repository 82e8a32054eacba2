import { describe, expect, it } from 'vitest';
import { classifySender } from '../../../lib/background/sender';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const ORIGIN = `chrome-extension://${ID}`;

describe('classifySender', () => {
  it('accepts our own pages', () => {
    expect(classifySender({ id: ID, url: `${ORIGIN}/popup.html`, origin: ORIGIN }, ID, ORIGIN)).toBe('extension-page');
    // The side panel opened in a tab (fallback) still is our page.
    expect(classifySender({ id: ID, url: `${ORIGIN}/sidepanel.html?call=1`, tab: { id: 3 } as never }, ID, ORIGIN)).toBe('extension-page');
  });
  it('classifies our content scripts by their tab', () => {
    expect(classifySender({ id: ID, url: 'https://crm.example.com/contact/1', origin: 'https://crm.example.com', tab: { id: 7 } as never }, ID, ORIGIN)).toBe('content-script');
  });
  it('refuses other extensions and senders without a known place', () => {
    expect(classifySender({ id: 'other', url: `${ORIGIN}/popup.html` }, ID, ORIGIN)).toBe('foreign');
    expect(classifySender({ id: ID }, ID, ORIGIN)).toBe('foreign');
  });
  it('a page cannot pass as an extension page by its path', () => {
    expect(classifySender({ id: ID, url: `https://evil.example/${ORIGIN}/popup.html`, origin: 'https://evil.example', tab: { id: 1 } as never }, ID, ORIGIN)).toBe('content-script');
  });
});

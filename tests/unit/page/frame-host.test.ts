import { describe, expect, it } from 'vitest';
import { frameHost } from '../../../lib/page/frame-host';

const tab = { url: 'https://crm.example.com/record/1' };

describe('frameHost: the site a frame speaks for', () => {
  it('a frame with its own http(s) URL: that URL’s host, whatever the tab', () => {
    expect(frameHost({ url: 'https://widgets.example.net/card', origin: 'https://widgets.example.net', tab })).toBe('widgets.example.net');
    expect(frameHost({ url: 'http://127.0.0.1:8080/a.html', tab })).toBe('127.0.0.1');
  });

  it('a blob: frame: the origin its URL carries', () => {
    expect(frameHost({ url: 'blob:https://app.example.org/4a1c-77', tab })).toBe('app.example.org');
  });

  it('about:blank, about:srcdoc and data: frames: the origin Chromium gives, else the tab’s page', () => {
    for (const url of ['about:blank', 'about:srcdoc', 'data:text/html,<p>x']) {
      expect(frameHost({ url, origin: 'https://parent.example.com', tab }), url).toBe('parent.example.com');
      expect(frameHost({ url, tab }), url).toBe('crm.example.com');
      // An opaque origin ("null", a sandboxed frame) says nothing: the tab's page stands in.
      expect(frameHost({ url, origin: 'null', tab }), url).toBe('crm.example.com');
    }
  });

  it('Firefox ESR 153’s senders, as the Firefox smoke saw them: the parent’s origin for about:blank and about:srcdoc', () => {
    const page = { url: 'http://127.0.0.1:35079/frames-srcdoc.html' };
    expect(frameHost({ url: 'about:srcdoc', origin: 'http://127.0.0.1:35079', tab: page })).toBe('127.0.0.1');
    expect(frameHost({ url: 'about:blank', origin: 'http://127.0.0.1:35079', tab: page })).toBe('127.0.0.1');
    // A frame of another site inside the page: its own origin, not the tab's.
    expect(frameHost({ url: 'about:srcdoc', origin: 'https://widgets.example.net', tab: page })).toBe('widgets.example.net');
  });

  it('nothing readable: no host (click-to-call stays off)', () => {
    expect(frameHost({})).toBe('');
    expect(frameHost({ url: 'chrome://settings/', tab })).toBe('');
    expect(frameHost({ url: 'not a url' })).toBe('');
    expect(frameHost({ url: 'about:blank' })).toBe('');
  });
});

/**
 * What the page specs share: the fixture pages served over HTTP on 127.0.0.1 (content scripts do not
 * run on file://; `localhost` reaches the same server under another host name), the extension set up
 * for the sandbox, and helpers that wait on signals (the popup's list, the sandbox's request log).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page, Worker } from '@playwright/test';
import type { Sandbox } from '../../sandbox/server';
import { expect, sandboxRequests, setUp, test as base, turnOnClickToCall } from './fixtures';
import { readDataRecordScript } from '../support/data-store';
import { fixturePage, PAGES_DIR } from '../support/fixture-pages';

export { expect };

export { PAGES_DIR };
export const EXPECTED = JSON.parse(readFileSync(join(PAGES_DIR, 'expected.json'), 'utf8')) as Record<
  string,
  {
    defaultCountry: string;
    expected: string[];
    afterClick?: Record<string, number>;
    withFrames?: Record<string, number>;
    withClosedShadowRoots?: Record<string, number>;
    inFrames?: Record<string, number>;
  }
>;

/** Pages made for these tests (a page script that forges input; a form next to an editor). */
export const EXTRA_PAGES: Record<string, string> = {
  'forge.html': `<!doctype html><html><head><meta charset="utf-8"><title>Forge</title></head><body>
    <p>Reception: <span id="number">(415) 555-0132</span></p>
    <p><a id="tel" href="tel:+14155550171">Call the office</a></p>
  </body></html>`,
  // Far apart: the call button shown beside one link must not cover the other.
  'two-tels.html': `<!doctype html><html><head><meta charset="utf-8"><title>Two links</title></head><body>
    <p><a id="tel1" href="tel:+14155550171">Call the office</a></p>
    <p style="margin-top: 160px"><a id="tel2" href="tel:+14155550172">Call the desk</a></p>
  </body></html>`,
  'editor.html': `<!doctype html><html><head><meta charset="utf-8"><title>Editor</title></head><body>
    <p id="office">Office: <span id="office-number">(415) 555-0150</span></p>
    <form id="form" action="/submitted" method="get">
      <label>Phone <input name="phone" id="phone" value="415-555-0181"></label>
      <label>Notes <textarea name="notes" id="notes">Call 415-555-0182 after 10am.</textarea></label>
      <button type="submit">Send</button>
    </form>
    <div id="editor" contenteditable="true"><p>Her EA, direct line <em id="ea">(415) 555-0183</em></p></div>
    <script>window.__before = { body: document.body.innerHTML, editor: document.getElementById('editor').innerHTML };</script></body></html>`,
  // A 5,000-row report export: 5,000 different numbers, more than a frame's report carries (500).
  'export.html': `<!doctype html><html><head><meta charset="utf-8"><title>Export</title></head><body><table>
    <thead><tr><th>Contact</th><th>Phone</th></tr></thead><tbody>${Array.from(
      { length: 5000 },
      (_, i) => `<tr><td>Contact ${i}</td><td>(212) ${200 + Math.floor(i / 100)}-${String(i % 100).padStart(4, '0')}</td></tr>`,
    ).join('')}</tbody></table></body></html>`,
  // A long read with figures but no phone-shaped digit run: the finder has no reason to load.
  'article.html': `<!doctype html><html><head><meta charset="utf-8"><title>A long read</title></head><body><article><h1>A long read</h1>${Array.from(
    { length: 400 },
    (_, i) => `<p>Chapter ${i + 1}, page ${i * 3} of 1,200: prices rose 4.5% to $125.00 in 2024, and <a href="/n${i}">note ${i}</a> says why.</p>`,
  ).join('')}</article></body></html>`,
  'london.html': `<!doctype html><html><head><meta charset="utf-8"><title>Desk</title></head><body><p>Desk: 020 7946 0133</p></body></html>`,
  // Issue 18, point 5: which site asked. The top page (127.0.0.1), a frame of another site
  // ({{OTHER_ORIGIN}}: localhost), and frames with no site of their own: data:, a sandboxed srcdoc, and a
  // sandboxed frame served by the top page's own host. Each holds one tel: link of its own.
  'frames-naming.html': `<!doctype html><html><head><meta charset="utf-8"><title>Frames</title></head><body>
    <p><a id="tel" href="tel:+14155550161">Call the top page</a></p>
    <iframe id="other" src="{{OTHER_ORIGIN}}/frame-child.html"></iframe>
    <iframe id="data" src="data:text/html;charset=utf-8,${encodeURIComponent('<p><a id="tel" href="tel:+14155550163">Call from data</a></p>')}"></iframe>
    <iframe id="sandboxed-srcdoc" sandbox srcdoc="<p><a id=&quot;tel&quot; href=&quot;tel:+14155550164&quot;>Call from srcdoc</a></p>"></iframe>
    <iframe id="sandboxed-page" sandbox src="/frame-sandboxed.html"></iframe>
  </body></html>`,
  'frame-child.html': `<!doctype html><html><head><meta charset="utf-8"><title>Widget</title></head><body>
    <p><a id="tel" href="tel:+14155550162">Call from the widget</a></p>
    <p id="selectable">Desk (415) 555-0182</p><button id="focus">Widget button</button>
  </body></html>`,
  'frame-sandboxed.html': `<!doctype html><html><head><meta charset="utf-8"><title>User content</title></head><body>
    <p><a id="tel" href="tel:+14155550165">Call from user content</a></p>
  </body></html>`,
  // A nosy page (issue 18, point 5): it tries to read the call button (the agent's name is in its label)
  // and to restyle it. Its @font-face rules claim the font names a button might use, so a request for
  // /font/… would mean the button's letters were drawn with the page's font; custom element classes for
  // names an overlay might use would be handed the element (and its closed root through ElementInternals).
  'nosy.html': `<!doctype html><html><head><meta charset="utf-8"><title>Nosy</title><style>
    @font-face { font-family: system-ui; src: url(/font/system-ui.woff2); }
    @font-face { font-family: sans-serif; src: url(/font/sans-serif.woff2); }
    @font-face { font-family: "Segoe UI"; src: url(/font/segoe-ui.woff2); }
    @font-face { font-family: Roboto; src: url(/font/roboto.woff2); }
    @font-face { font-family: -apple-system; src: url(/font/apple-system.woff2); }
    html > :not(head):not(body), [data-click-to-call-overlay], div { display: none !important; opacity: 0 !important; visibility: hidden !important; }
    @layer nosy { html > :not(head):not(body) { display: none !important; transform: translateX(-99999px) !important; } }
    button, html > *::part(button) { background: rgb(255, 0, 0) !important; color: rgb(255, 0, 0) !important; }
  </style></head><body>
    <p>Reception: <span id="number">(415) 555-0132</span></p>
    <script>
      window.__constructed = [];
      for (const name of ['click-to-call-overlay', 'call-button', 'voice-agent-call-button']) {
        customElements.define(name, class extends HTMLElement {
          constructor() { super(); window.__constructed.push({ name, internals: this.attachInternals() }); }
        });
      }
      window.__restyled = 0;
      new MutationObserver((records) => {
        for (const record of records) for (const node of record.addedNodes) {
          if (node.nodeType !== 1 || node.localName === 'head' || node.localName === 'body') continue;
          window.__host = node;
          node.style.setProperty('display', 'none', 'important');
          node.setAttribute('style', 'display: none !important; opacity: 0 !important; visibility: hidden !important');
          node.hidden = true;
          window.__restyled++;
        }
      }).observe(document.documentElement, { childList: true });
    </script>
  </body></html>`,
  // The shortcut: the top page and a frame of another site both hold a selection.
  'focus-frames.html': `<!doctype html><html><head><meta charset="utf-8"><title>Two selections</title></head><body>
    <p id="selectable">Office (415) 555-0181</p><button id="focus">Top button</button>
    <iframe id="other" src="{{OTHER_ORIGIN}}/frame-child.html"></iframe>
  </body></html>`,
};

export interface PagesServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The same server as http://localhost:<port>: another site to the extension's site rules. */
  localhostUrl: string;
  /** Query strings the /submitted route received. */
  submitted: string[];
  /** Every path the server was asked for, in order. */
  requested: string[];
}

export function startPagesServer(): Promise<{ server: Server; pages: PagesServer }> {
  const pages: PagesServer = { url: '', localhostUrl: '', submitted: [], requested: [] };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const name = url.pathname.slice(1);
    pages.requested.push(url.pathname);
    if (name === 'submitted') {
      pages.submitted.push(url.search);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><p>Thanks</p>');
      return;
    }
    const body = (EXTRA_PAGES[name] ?? fixturePage(name))?.replaceAll('{{OTHER_ORIGIN}}', pages.localhostUrl);
    if (body === undefined) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      pages.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      pages.localhostUrl = pages.url.replace('127.0.0.1', 'localhost');
      resolve({ server, pages });
    }),
  );
}

export async function stopPagesServer(server: Server): Promise<void> {
  // Chromium keeps connections alive: close them, or close() waits for them.
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

export interface Ready {
  agentName: string;
  agentId: string;
}

/** The extension set up for the sandbox as a person would, click-to-call on pages on, the agent list fetched. */
export async function setUpForPages(context: BrowserContext, sw: Worker, sandbox: Sandbox): Promise<Ready> {
  const extensionId = new URL(sw.url()).host;
  const open = async (path: string) => {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/${path}`);
    return page;
  };
  const options = await open('options.html');
  await setUp(options, sandbox.url);
  await turnOnClickToCall(options);
  await options.close();
  const popup = await open('popup.html'); // fetches the agent list
  const firstAgent = () =>
    sw.evaluate(readDataRecordScript('agents.cache')).then((cache) => (cache as { agents?: unknown[] } | undefined)?.agents?.[0] ?? null);
  await expect.poll(firstAgent, { timeout: 20_000 }).not.toBeNull();
  const agent = (await firstAgent()) as { id: string; name: string };
  await popup.close();
  return { agentName: agent.name, agentId: agent.id };
}

export const test = base.extend<{ pages: PagesServer; ready: Ready }>({
  // The page specs need the content script: every page allowed in the profile, then turned on in `ready`.
  grantPages: true,
  pages: async ({}, use) => {
    const { server, pages } = await startPagesServer();
    await use(pages);
    await stopPagesServer(server);
  },
  ready: async ({ context, sandbox, serviceWorker }, use) => {
    await use(await setUpForPages(context, await serviceWorker(), sandbox));
  },
});

/** Every POST the sandbox got under /batches: creating, scheduling or stopping a batch. */
export async function batchPosts(sandbox: Sandbox) {
  return (await sandboxRequests(sandbox)).filter((r) => r.method === 'POST' && r.path.startsWith('/batches'));
}

/** Sets the extension's default country on the options page, as a person would. */
export async function setCountry(context: BrowserContext, extensionId: string, country: string): Promise<void> {
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(options.getByText(/••••/)).toBeVisible();
  await options.getByLabel('Default country').selectOption(country);
  await options.getByRole('button', { name: 'Save', exact: true }).click();
  await expect
    .poll(() => options.evaluate(async () => (await (globalThis as any).chrome.storage.local.get('settings')).settings?.defaultCountry))
    .toBe(country);
  await options.close();
}

export async function tabIdOf(sw: Worker, url: string): Promise<number> {
  const id = await sw.evaluate(async (u) => ((await (globalThis as any).chrome.tabs.query({})) as { id: number; url: string }[]).find((t) => t.url === u)?.id, url);
  if (typeof id !== 'number') throw new Error(`no tab for ${url}`);
  return id;
}

/** The E.164 numbers the popup's "On this page" lists for `tabId` (reloading until `expected` or timeout). */
export async function expectListed(popup: Page, expected: string[], timeout = 20_000): Promise<void> {
  await expect
    .poll(
      async () => {
        await popup.reload();
        const shown = await popup
          .getByRole('heading', { name: 'On this page' })
          .waitFor({ timeout: 5000 })
          .then(() => true, () => false);
        if (!shown) return ['(no "On this page" section)'];
        const texts = await popup.getByRole('list', { name: /^Phone numbers on / }).getByRole('listitem').allTextContents();
        return texts.map((t) => (t.match(/\+\d{7,15}/g) ?? ['?']).at(-1)!).sort();
      },
      { timeout, intervals: [250, 500, 1000] },
    )
    .toEqual([...expected].sort());
}

export async function openFixture(context: BrowserContext, sw: Worker, url: string): Promise<{ page: Page; popup: Page; tabId: number }> {
  const page = await context.newPage();
  await page.goto(url);
  const tabId = await tabIdOf(sw, page.url());
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${new URL(sw.url()).host}/popup.html?tab=${tabId}`);
  return { page, popup, tabId };
}

/** The overlay's host element (lib/page/overlay.ts OVERLAY_SELECTOR): all a page can see of it. */
export const OVERLAY = '[data-click-to-call-overlay]';

interface AXNode {
  ignored?: boolean;
  role?: { value?: string };
  name?: { value?: unknown };
  properties?: { name: string; value: { value?: unknown } }[];
  backendDOMNodeId?: number;
}

/**
 * The call button as assistive technology finds it: by role and name, in the page's accessibility
 * tree, which reaches into the overlay's closed shadow root (page scripts and Playwright's selectors
 * cannot). With where it is on screen, for a real click. Null when no such button is shown.
 */
export async function findCallButton(page: Page, name: string | RegExp): Promise<{ name: string; focused: boolean; x: number; y: number } | null> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
    const matches = (text: string) => (typeof name === 'string' ? text === name : name.test(text));
    const node = nodes.find((n) => !n.ignored && n.role?.value === 'button' && matches(String(n.name?.value ?? '')) && n.backendDOMNodeId !== undefined);
    if (!node) return null;
    // A button the tree still lists while it is being hidden has no box: it is not shown.
    const box = (await cdp.send('DOM.getBoxModel', { backendNodeId: node.backendDOMNodeId! }).catch((e: Error) => {
      if (/Could not compute box model|No node with given id/i.test(e.message)) return null;
      throw e;
    })) as { model: { border: number[] } } | null;
    if (!box) return null;
    const { model } = box;
    const [x1, y1, , , x3, y3] = model.border as [number, number, number, number, number, number];
    const focused = node.properties?.some((p) => p.name === 'focused' && p.value.value === true) ?? false;
    return { name: String(node.name!.value), focused, x: (x1 + x3) / 2, y: (y1 + y3) / 2 };
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** The call button in the overlay, found as a person with a screen reader would (see findCallButton). */
export function callButton(page: Page, name: string | RegExp) {
  const find = () => findCallButton(page, name);
  return {
    find,
    toBeVisible: () => expect.poll(async () => (await find()) !== null, { message: `a button "${name}" shown` }).toBe(true),
    toBeHidden: () => expect.poll(async () => (await find()) === null, { message: `no button "${name}" shown` }).toBe(true),
    toBeFocused: () => expect.poll(async () => (await find())?.focused ?? false, { message: `the button "${name}" focused` }).toBe(true),
    /** A real mouse click where the button is drawn. */
    async click(): Promise<void> {
      await expect.poll(async () => (await find()) !== null, { message: `a button "${name}" shown` }).toBe(true);
      const button = (await find())!;
      await page.mouse.click(button.x, button.y);
    },
  };
}


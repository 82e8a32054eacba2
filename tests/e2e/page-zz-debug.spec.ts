import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { test, setUp } from './fixtures';

test('debug', async ({ context, openPage, sandbox, serviceWorker }) => {
  const server = createServer((req, res) => {
    let b: Buffer | null = null; try { b = readFileSync(join('tests/fixtures/pages', req.url!.slice(1))); } catch {} if (b) res.writeHead(200, { 'content-type': 'text/html' }).end(b); else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as any).port;
  const options = await openPage('options.html');
  await setUp(options, sandbox.url);
  const sw = await serviceWorker();
  const page = await context.newPage();
  page.on('console', (m) => console.log('PAGE', m.type(), m.text()));
  const t0 = Date.now();
  await page.goto(`http://127.0.0.1:${port}/crm-list.html`);
  console.log('loaded', Date.now() - t0);
  const tabId = await sw.evaluate(async (u) => ((await (globalThis as any).chrome.tabs.query({})) as any[]).find((t) => t.url === u)?.id, page.url());
  console.log('tab', tabId);
  const popup = await context.newPage();
  popup.on('console', (m) => console.log('POPUP', m.type(), m.text()));
  let t1 = Date.now();
  await popup.goto(`chrome-extension://${new URL(sw.url()).host}/popup.html?tab=${tabId}`);
  console.log('popup goto', Date.now() - t1);
  await popup.waitForTimeout(3000);
  console.log('STORE', await sw.evaluate(async () => JSON.stringify((await (globalThis as any).chrome.storage.session.get('page.numbers'))['page.numbers']).slice(-300)));
  console.log('REPLY', await popup.evaluate(async (id) => JSON.stringify(await (globalThis as any).chrome.runtime.sendMessage({ type: 'page/numbers-for-tab', tabId: id })).slice(0, 300), tabId));
  console.log((await popup.locator('body').innerText()).slice(0, 1500));
  t1 = Date.now();
  await popup.reload();
  console.log('reload', Date.now() - t1);
  server.close();
});

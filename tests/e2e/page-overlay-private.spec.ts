/**
 * Issue 18, point 5: the call button lives in a closed shadow root. A page script can neither read
 * the agent's name from it nor restyle it, and the button still works for the user. End to end in
 * Chromium with the production build, on a page that tries (page-fixtures.ts 'nosy.html').
 */
import type { Page } from '@playwright/test';
import { callButton, expect, expectListed, openFixture, OVERLAY, test } from './page-fixtures';

/** The button's own computed look, read through the accessibility tree's node (DevTools reaches closed roots; pages do not). */
async function buttonLook(page: Page, name: string): Promise<Record<string, string>> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { ignored?: boolean; role?: { value?: string }; name?: { value?: unknown }; backendDOMNodeId?: number }[] };
    const node = nodes.find((n) => !n.ignored && n.role?.value === 'button' && n.name?.value === name)!;
    const { object } = (await cdp.send('DOM.resolveNode', { backendNodeId: node.backendDOMNodeId! })) as { object: { objectId: string } };
    const { result } = (await cdp.send('Runtime.callFunctionOn', {
      objectId: object.objectId,
      returnByValue: true,
      functionDeclaration: `function () { const s = getComputedStyle(this); return { background: s.backgroundColor, color: s.color, display: s.display, visibility: s.visibility }; }`,
    })) as { result: { value: Record<string, string> } };
    return result.value;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

test('a page can neither read the agent’s name from the call button nor restyle it; the user still calls through it', async ({ context, ready, pages, serviceWorker }) => {
  const { page, popup } = await openFixture(context, await serviceWorker(), `${pages.url}/nosy.html`);
  await expectListed(popup, ['+14155550132']);
  await page.bringToFront();
  await page.locator('#number').hover();
  const name = `Call with ${ready.agentName}`;
  const button = callButton(page, name);
  await button.toBeVisible();
  const shown = (await button.find())!;

  // Everything below runs in the page's own world, as the page's scripts would.
  const seen = await page.evaluate(
    ({ agentName, overlay, x, y }) => {
      const host = document.querySelector(overlay) as HTMLElement | null;
      const all = [...document.querySelectorAll('*')];
      const selection = getSelection()!;
      selection.selectAllChildren(document.documentElement);
      const selected = selection.toString();
      selection.removeAllRanges();
      const style = host ? getComputedStyle(host) : null;
      return {
        host: Boolean(host),
        restyledByThePage: (window as any).__restyled as number,
        sameHostThePageSaw: (window as any).__host === host,
        openShadowRoots: all.filter((el) => el.shadowRoot).map((el) => el.localName),
        constructedByThePage: ((window as any).__constructed as { name: string; internals: ElementInternals }[]).map((c) => ({ name: c.name, root: Boolean(c.internals.shadowRoot) })),
        inText: [document.documentElement.innerText, document.documentElement.textContent ?? '', document.documentElement.outerHTML, selected].some((t) => t.includes(agentName)),
        found: (window as any).find(agentName, false, false, true) as boolean,
        hostStyle: style && { display: style.display, visibility: style.visibility, opacity: style.opacity, transform: style.transform, position: style.position },
        onTop: host !== null && document.elementFromPoint(x, y) === host,
      };
    },
    { agentName: ready.agentName, overlay: OVERLAY, x: shown.x, y: shown.y },
  );
  expect(seen).toEqual({
    host: true,
    // The page did all it could to the host…
    restyledByThePage: 1,
    sameHostThePageSaw: true,
    // …but no shadow root is open to it, no element class of its own was used, and the name is in no text it reads.
    openShadowRoots: [],
    constructedByThePage: [],
    inText: false,
    found: false,
    // The host keeps its own look (its :host rules win over the page's important rules and style attribute).
    hostStyle: { display: 'block', visibility: 'visible', opacity: '1', transform: 'none', position: 'fixed' },
    onTop: true,
  });
  // The button is drawn with its own colours and the browser's generic fonts: no font of the page's was fetched for its letters.
  expect(await buttonLook(page, name)).toEqual({ background: 'rgb(11, 87, 208)', color: 'rgb(255, 255, 255)', display: 'block', visibility: 'visible' });
  expect(pages.requested.filter((path) => path.startsWith('/font/'))).toEqual([]);

  // The user's real click still opens the confirmation for the number.
  await page.locator('#number').hover();
  const [confirmation] = await Promise.all([context.waitForEvent('page'), button.click()]);
  await confirmation.waitForLoadState();
  const url = new URL(confirmation.url());
  expect([url.searchParams.get('dial'), url.searchParams.get('source')]).toEqual(['+14155550132', 'overlay']);
  await expect(confirmation.getByRole('dialog', { name: 'Place this call?' })).toContainText(ready.agentName);
});

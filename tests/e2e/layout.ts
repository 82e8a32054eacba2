/**
 * What the layout checks read in a page (run with page.evaluate): elements that scroll sideways,
 * words laid out on more than one line, and content cut off (past the window's edge, or past the
 * edge of a box that hides its overflow). Shared by the visual check and the specs that look at a
 * screen at the side panel's real width.
 */
export interface LayoutProblems {
  sideways: string[];
  brokenWords: string[];
  clipped: string[];
}

/**
 * Runs in the page: elements that scroll sideways, words laid out on more than one line, content cut
 * off. With `host`, inside that element's open shadow root (an embedded element such as the widget) too.
 */
export function layoutProblems(host?: string | void): LayoutProblems {
  const describe = (el: Element) => {
    const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls}`;
  };
  const sideways: string[] = [];
  const root = document.scrollingElement ?? document.documentElement;
  if (root.scrollWidth > root.clientWidth) sideways.push(`the page: ${root.scrollWidth} > ${root.clientWidth}`);
  const shadow = host ? document.querySelector(host)?.shadowRoot : null;
  const roots: ParentNode[] = shadow ? [document.body, shadow] : [document.body];
  for (const el of roots.flatMap((r) => [...r.querySelectorAll('*')])) {
    const style = getComputedStyle(el);
    if (!['auto', 'scroll'].includes(style.overflowX)) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'TEXTAREA') sideways.push(`${describe(el)}: ${el.scrollWidth} > ${el.clientWidth}`);
  }
  const brokenWords: string[] = [];
  const texts = roots.flatMap((r) => {
    const walker = document.createTreeWalker(r, NodeFilter.SHOW_TEXT);
    const out: Text[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(n as Text);
    return out;
  });
  for (const node of texts) {
    const parent = node.parentElement;
    if (!parent || parent.closest('.visually-hidden, .tabs-measure-box, [hidden], script, style, textarea, select, option')) continue;
    if (parent.getClientRects().length === 0 || getComputedStyle(parent).visibility === 'hidden') continue;
    for (const match of node.data.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top / 4)));
      if (lines.size > 1) brokenWords.push(`"${match[0]}" in ${describe(parent)}`);
    }
  }
  // Cut off without a scroll bar: a box that hides what overflows it (text cut, an ellipsis), or
  // anything reaching past the window's edges or past the box of an ancestor that hides overflow.
  const clipped: string[] = [];
  const width = document.documentElement.clientWidth;
  const skip = (el: Element) => !!el.closest('.visually-hidden, .tabs-measure-box, [hidden], script, style, head') || el.getClientRects().length === 0;
  for (const el of roots.flatMap((r) => [...r.querySelectorAll('*')])) {
    if (skip(el) || ['INPUT', 'TEXTAREA', 'SELECT', 'OPTION'].includes(el.tagName)) continue;
    const style = getComputedStyle(el);
    if (['hidden', 'clip'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) clipped.push(`${describe(el)} cuts its content: ${el.scrollWidth} > ${el.clientWidth}`);
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.right > width + 1 || box.left < -1) clipped.push(`${describe(el)} reaches past the window: ${Math.round(box.left)}…${Math.round(box.right)} of ${width}`);
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (!['hidden', 'clip'].includes(getComputedStyle(up).overflowX)) continue;
      const outer = up.getBoundingClientRect();
      if (box.right > outer.right + 1 || box.left < outer.left - 1) clipped.push(`${describe(el)} is cut by ${describe(up)}`);
      break;
    }
  }
  return { sideways, brokenWords, clipped };
}

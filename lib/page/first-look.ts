/**
 * The content script's first look at a document, before the phone finder (libphonenumber-js and its
 * metadata, most of the script's cost) is loaded: could the document hold a number the finder
 * reports? Yes when its text has a phone-shaped digit run, when it has tel:/callto: links, read-only
 * or disabled text inputs with such a value, or shadow roots whose text does. A page without any
 * (an article, a dashboard of small figures) never loads the finder; `watchForNumbers` loads it the
 * moment one appears. Over-answering yes only costs the load; answering no where the finder would find
 * something would lose numbers, so every test here is a superset of what the finder reads.
 */
import { mayHostShadowRoot } from '../phone/shadow-hosts';
import { hasCandidateShape, INPUT_TYPES_WITH_TEXT, mayContainPhoneNumber } from '../phone/candidate';
import type { ShadowRootOf } from './shadow-roots';

const TEL_LINKS = 'a[href^="tel:" i], a[href^="callto:" i]';
// The inputs the finder reads (lib/phone/scan.ts onInput): text-like types, read-only or disabled.
const READ_ONLY_INPUTS = 'input[readonly], input[disabled], fieldset[disabled] input, textarea[readonly], textarea[disabled]';
/** Nested shadow trees deeper than this are taken as a yes (the finder reads them). */
const MAX_DEPTH = 8;

function inputsMayHold(root: ParentNode): boolean {
  for (const el of root.querySelectorAll(READ_ONLY_INPUTS)) {
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    if ((el.localName === 'textarea' || INPUT_TYPES_WITH_TEXT.has(type)) && mayContainPhoneNumber(String((el as HTMLInputElement).value ?? ''))) return true;
  }
  return false;
}

function treeMayHold(root: Document | ShadowRoot, text: string, getShadowRoot: ShadowRootOf, depth: number): boolean {
  if (hasCandidateShape(text)) return true;
  if (root.querySelector(TEL_LINKS) || inputsMayHold(root)) return true;
  // Shadow trees: their text is not in the host document's textContent.
  for (const el of root.querySelectorAll('*')) {
    if (!mayHostShadowRoot(el.localName)) continue;
    const shadow = getShadowRoot(el);
    if (!shadow) continue;
    if (depth >= MAX_DEPTH || treeMayHold(shadow, shadow.textContent ?? '', getShadowRoot, depth + 1)) return true;
  }
  return false;
}

/** Elements the quick look reads the text of, from the document's start. */
const QUICK_LOOK_ELEMENTS = 400;
/** The cells' text is tested once this long: a number in the first rows ends the look there. */
const TEST_EVERY_CHARS = 500;
/** A cell: at most this many child elements, none with children of its own. */
const CELL_CHILDREN = 8;

function isCell(el: Element): boolean {
  if (el.childElementCount > CELL_CHILDREN) return false;
  for (let child = el.firstElementChild; child; child = child.nextElementSibling) if (child.firstElementChild) return false;
  return true;
}

/**
 * The quick look: does the text of one of the document's first cells (small elements: a list item,
 * a table cell with a link or a <small> in it) have a candidate shape? A cell's text is a stretch of
 * the document's text, so a yes here is the whole text's yes, and a list with a number in its first
 * rows is not read whole (its whole text cost the content script ~20 ms on a 5,000-row page). A no
 * says nothing: the whole text is read then (a number split over cells is found there).
 */
function firstCellsHaveCandidate(root: Element): boolean {
  let text = '';
  let el: Element | null = root.firstElementChild;
  for (let n = 0; el && n < QUICK_LOOK_ELEMENTS; n++) {
    if (!isCell(el)) {
      el = el.firstElementChild;
      continue;
    }
    // A character no candidate spans: two cells' digits never join into one run here (so nothing
    // carries over from one test to the next).
    text += `${el.textContent}|`;
    if (text.length > TEST_EVERY_CHARS) {
      if (hasCandidateShape(text)) return true;
      text = '';
    }
    n += el.childElementCount;
    while (el && el !== root && !el.nextElementSibling) el = el.parentElement;
    el = el && el !== root ? el.nextElementSibling : null;
  }
  return hasCandidateShape(text);
}

/** Could `doc` hold a number the finder reports? Cheap: native text and selector reads, no phone library. */
export function mayHoldNumbers(doc: Document, getShadowRoot: ShadowRootOf = (el) => el.shadowRoot): boolean {
  const body = doc.body ?? doc.documentElement;
  if (!body) return false;
  return firstCellsHaveCandidate(body) || treeMayHold(doc, body.textContent ?? '', getShadowRoot, 0);
}

export interface NumberWatch {
  stop(): void;
}

/** Looks again at most this often while the page keeps changing. */
const LOOK_EVERY_MS = 500;

/**
 * Calls `found` once, as soon as the document may hold a number: now, or after a change that
 * brings one (looked at again at most every LOOK_EVERY_MS). `nothing` is called after the first
 * look when it found nothing. Changes inside shadow trees are seen when the document around them changes.
 */
export function watchForNumbers(doc: Document, getShadowRoot: ShadowRootOf, found: () => void, nothing: () => void = () => undefined): NumberWatch {
  if (mayHoldNumbers(doc, getShadowRoot)) {
    found();
    return { stop: () => undefined };
  }
  nothing();
  const win = doc.defaultView ?? window;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const look = () => {
    timer = undefined;
    if (stopped || !mayHoldNumbers(doc, getShadowRoot)) return;
    stop();
    found();
  };
  const observer = new win.MutationObserver(() => {
    if (timer === undefined && !stopped) timer = setTimeout(look, LOOK_EVERY_MS);
  });
  observer.observe(doc, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['href', 'value', 'readonly', 'disabled'] });
  function stop() {
    stopped = true;
    observer.disconnect();
    clearTimeout(timer);
  }
  return { stop };
}

/**
 * Click-to-call on one document (each frame runs its own): scan in idle time, follow changes,
 * report the numbers, show the call button on hover/focus, turn tel: link clicks into call intents.
 *
 * Everything that leads to a call starts from trusted user input (`isTrusted`), and all it does is
 * ask the background to open the confirmation. Nothing here listens to `message` events or custom
 * DOM events, so a page cannot steer it.
 */
import { warmUpPlaces } from '../phone/place-names';
import { createPageScanner, OBSERVED_ATTRIBUTES, type PhoneMatch, type Scanner } from '../phone/scanner';
import { boxContains, hitForFocus, hitTest, sameBox, type Hit } from './hit';
import { mayHoldNumbers } from './first-look';
import { createIdleRunner } from './idle';
import type { PageRequest } from './messages';
import { createOverlay, type OverlayView } from './overlay';
import { countNumbers } from './count';
import { numbersToReport, reportKey } from './report';
import { telClickOf } from './tel';

export interface PageLink {
  /** Sends a request to the background (`runtime.sendMessage`). */
  send(request: PageRequest): Promise<unknown>;
  /** False once the extension was reloaded or removed: this script is orphaned and must stop. */
  alive(): boolean;
}

export interface ClickToCallConfig {
  defaultCountry: string;
  agentName: string | null;
  /** Country names in the frame's languages (lib/phone/region-names.ts), added to the place index before the scan. */
  places?: string;
}

/** What the content script's environment gives the finder. */
export interface ClickToCallEnv {
  /** Shadow root of an element, closed ones where the extension can open them (./shadow-roots.ts). */
  getShadowRoot?: (element: Element) => ShadowRoot | null;
  /** The first stage has already seen a possible number here (./first-look.ts): no second look. */
  mayHoldNumbers?: boolean;
}

export interface ClickToCall {
  readonly scanner: Scanner;
  /** New agent name for the button (a new country needs a new instance). */
  setAgentName(name: string | null): void;
  stop(): void;
}

/**
 * Text nodes per scanner chunk: the idle runner checks its time budget between chunks, so a chunk is
 * the most a slice can overrun it by. This scanner parses nothing (texts go to the background), so a
 * text costs it tens of µs and 32 stay well under a millisecond. 8 dated from parsing on the page
 * (1–3 ms a text); resuming the walk and reading the clock once per 8 texts cost a 5,000-row list
 * about a tenth of its time (bench/page-cost.ts AGAINST).
 */
export const CHUNK = 32;
/** Bursts of mutations are merged: wait this long after the last one… */
const DEBOUNCE_MS = 250;
/** …but never longer than this after the first. */
const MAX_WAIT_MS = 1000;
/** A burst bigger than this is treated as a rebuilt page: one full rescan. */
const MAX_RECORDS = 5000;
/** While a long scan runs, report at most this often. */
const REPORT_EVERY_MS = 2000;
const HIDE_DELAY_MS = 400;

const ELEMENT_NODE = 1;
const BLOCKISH = /^(?:div|p|li|td|th|tr|dd|dt|section|article|aside|header|footer|main|nav|ul|ol|dl|table|tbody|thead|form|fieldset|blockquote|address|h[1-6])$/;

/**
 * Block elements covering the viewport, for scanning what the user sees first: the highest block
 * under a few sample points that is no taller than the viewport, plus its following siblings down
 * to the viewport's bottom (table rows, list items).
 */
export function visibleBlocks(doc: Document, width: number, height: number, limit = 120): Element[] {
  const out = new Set<Element>();
  for (let i = 1; i <= 3; i++) {
    for (let j = 1; j <= 3; j++) {
      let el = doc.elementFromPoint((width * i) / 4, (height * j) / 4);
      while (el && !BLOCKISH.test(el.localName)) el = el.parentElement;
      if (!el || out.has(el)) continue;
      for (let parent = el.parentElement; parent && BLOCKISH.test(parent.localName) && parent.getBoundingClientRect().height <= height; parent = parent.parentElement) {
        el = parent;
      }
      for (let sib: Element | null = el; sib && out.size < limit; sib = sib.nextElementSibling) {
        if (!BLOCKISH.test(sib.localName)) continue;
        if (sib !== el && sib.getBoundingClientRect().top > height) break;
        out.add(sib);
      }
    }
  }
  return [...out];
}

export function startClickToCall(link: PageLink, config: ClickToCallConfig, doc: Document = document, env: ClickToCallEnv = {}): ClickToCall {
  const win = doc.defaultView ?? window;
  const now = () => win.performance.now();
  let agentName = config.agentName;
  let stopped = false;
  const cleanups: (() => void)[] = [];
  const on = (target: EventTarget, type: string, fn: (e: never) => void, capture = true) => {
    const options = { capture, passive: type !== 'click' && type !== 'keydown' };
    target.addEventListener(type, fn as EventListener, options);
    cleanups.push(() => target.removeEventListener(type, fn as EventListener, options));
  };
  const failed = () => {
    if (!link.alive()) stop();
  };

  // ---- scanning ----
  const observeOptions: MutationObserverInit = {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
    attributeFilter: [...OBSERVED_ATTRIBUTES],
    attributeOldValue: true,
  };
  let pending: MutationRecord[] = [];
  let firstPendingAt = 0;
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const observer = new win.MutationObserver((records) => {
    if (stopped) return;
    if (pending.length <= MAX_RECORDS) for (const r of records) pending.push(r);
    if (!firstPendingAt) firstPendingAt = now();
    clearTimeout(flushTimer);
    flushTimer = setTimeout(flushMutations, Math.max(0, Math.min(DEBOUNCE_MS, firstPendingAt + MAX_WAIT_MS - now())));
  });
  const scanner = createPageScanner({
    defaultCountry: config.defaultCountry,
    chunkSize: CHUNK,
    getShadowRoot: env.getShadowRoot,
    onShadowRoot: (root) => observer.observe(root, observeOptions),
    // Parsing (most of a large page's cost, and the phone library) lives in the background; the page
    // keeps the DOM work. One JSON string: the browser serialises a message's arrays value by value,
    // costing the page more.
    findAway: (request) => link.send({ type: 'page/find', batch: JSON.stringify(request) }),
    onFound: () => {
      // An answer can come back after stop(): its frame has already said "no numbers".
      if (!stopped && (!scanner.hasPendingWork() || now() - lastReportAt > REPORT_EVERY_MS)) afterScan();
    },
  });
  let lastReportKey = '';
  let lastReportAt = 0;
  // The place-name index's one-time build first, as a task of its own (where the page may hold
  // numbers: the first stage loads the finder only for those and says so; started otherwise, look),
  // then the scan. The phone library warms up in the background, which parses the page's texts.
  const warmUp = (env.mayHoldNumbers ?? mayHoldNumbers(doc, env.getShadowRoot)) ? [() => warmUpPlaces(config.places)] : [];
  const work = () => {
    const step = warmUp.shift();
    if (!step) return scanner.runChunk();
    step();
    return 'yield' as const;
  };
  const runner = createIdleRunner(win as unknown as Parameters<typeof createIdleRunner>[0], work, {
    onSlice: (more) => {
      if (!more || now() - lastReportAt > REPORT_EVERY_MS) afterScan();
    },
  });

  function flushMutations() {
    flushTimer = undefined;
    firstPendingAt = 0;
    const records = pending;
    pending = [];
    if (stopped) return;
    if (records.length > MAX_RECORDS) scanner.scanRoot(doc);
    else scanner.scanMutations(records);
    afterScan(); // removed nodes' numbers are dropped at once
    runner.schedule();
  }

  // The top frame reports once even when it found nothing, so the popup knows the page ("No numbers on …").
  let reportEmpty = win === win.top;

  function afterScan() {
    const changed = scanner.takeChanges().length > 0;
    const first = reportEmpty && !scanner.hasPendingWork();
    if (!changed && !first) return;
    if (first) reportEmpty = false;
    if (current && !stillFound(current.hit.match)) hide();
    const matches = scanner.matches();
    const numbers = numbersToReport(matches);
    // The report is capped; the count it carries is not.
    const total = countNumbers(matches);
    const key = `${total}\n${reportKey(numbers)}`;
    if (key === lastReportKey && !first) return;
    lastReportKey = key;
    lastReportAt = now();
    link.send({ type: 'page/numbers', numbers, total }).catch(failed);
  }

  function stillFound(match: PhoneMatch): boolean {
    const key = match.source === 'text' ? match.container : match.element;
    return scanner.results().get(key)?.includes(match) ?? false;
  }

  // ---- the call button ----
  let overlay: OverlayView | null = null;
  let current: { hit: Hit; via: 'pointer' | 'focus'; anchor: Element | null } | null = null;
  let hideTimer: ReturnType<typeof setTimeout> | undefined;
  /** The element whose button the user dismissed with Escape: not shown again until focus leaves it. */
  let dismissed: Element | null = null;

  function ensureOverlay(): OverlayView {
    if (overlay) return overlay;
    const view = createOverlay(doc);
    view.button.addEventListener('click', (e) => {
      if (!e.isTrusted || !current) return;
      e.preventDefault();
      e.stopPropagation();
      const number = current.hit.match.e164;
      // As written too, when that is not how a dial pad shows it (other scripts' digits, full-width forms).
      const written = current.hit.match.raw.trim().slice(0, 64);
      hide();
      link.send({ type: 'page/call', number, ...(written && !/^[\d\s()+.\-]*$/.test(written) ? { written } : {}), source: 'overlay' }).catch(failed);
    });
    view.button.addEventListener('keydown', (e) => {
      if (!e.isTrusted || !current) return;
      const anchor = current.anchor as HTMLElement | null;
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        hide();
        dismissed = anchor;
        anchor?.focus();
      } else if (e.key === 'Tab' && anchor) {
        // Back to the number; a forward Tab then continues from it as if the button were not there.
        hide();
        anchor.focus();
        if (e.shiftKey) e.preventDefault();
      }
    });
    doc.documentElement.append(view.host);
    overlay = view;
    return view;
  }

  function show(hit: Hit, via: 'pointer' | 'focus', anchor: Element | null) {
    clearTimeout(hideTimer);
    if (doc.designMode === 'on') return;
    if (current && overlay?.visible && current.hit.match === hit.match && sameBox(current.hit.box, hit.box)) {
      current.via = via;
      current.anchor = anchor ?? current.anchor;
      return;
    }
    const label = agentName ? `Call with ${agentName}` : `Call ${hit.match.raw}`;
    ensureOverlay().show(hit.box, label, hit.match.raw);
    current = { hit, via, anchor };
  }

  function hide() {
    clearTimeout(hideTimer);
    overlay?.hide();
    current = null;
  }

  function hideSoon() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(() => {
      if (overlay && doc.activeElement === overlay.host) return; // the user tabbed onto the button
      hide();
    }, HIDE_DELAY_MS);
  }

  let pointer: { path: EventTarget[]; x: number; y: number } | null = null;
  let frame = 0;
  function onFrame() {
    frame = 0;
    const p = pointer;
    pointer = null;
    if (!p || stopped) return;
    if (!link.alive()) return stop();
    if (overlay && p.path.includes(overlay.host)) return clearTimeout(hideTimer);
    if (current?.via === 'pointer' && boxContains(current.hit.box, p.x, p.y, 1)) return clearTimeout(hideTimer);
    const hit = hitTest(p.path, p.x, p.y, scanner.results());
    if (hit) show(hit, 'pointer', null);
    else if (current?.via === 'pointer') hideSoon();
  }

  on(doc, 'pointermove', (e: PointerEvent) => {
    if (!e.isTrusted) return;
    // composedPath() is only readable while the event is dispatched: keep it for the frame.
    pointer = { path: e.composedPath(), x: e.clientX, y: e.clientY };
    if (!frame) frame = win.requestAnimationFrame(onFrame);
  });
  on(doc, 'focusin', (e: FocusEvent) => {
    if (!e.isTrusted || (overlay && e.target === overlay.host)) return;
    const target = e.composedPath()[0] as Element | undefined;
    if (target === dismissed) return;
    const hit = target?.nodeType === ELEMENT_NODE ? hitForFocus(target, scanner.results()) : null;
    if (hit) show(hit, 'focus', target!);
    else if (current?.via === 'focus') hide();
  });
  on(doc, 'focusout', (e: FocusEvent) => {
    if (!e.isTrusted) return;
    if (dismissed && e.composedPath()[0] === dismissed) dismissed = null;
    if (current?.via !== 'focus' || e.target === overlay?.host) return;
    if (overlay && e.relatedTarget === overlay.host) return;
    hide();
  });
  on(doc, 'keydown', (e: KeyboardEvent) => {
    if (!e.isTrusted || !current || !overlay?.visible || e.target === overlay.host) return;
    if (e.key === 'Escape') {
      if (current.via === 'focus') dismissed = current.anchor;
      hide();
    } else if (e.key === 'Tab' && !e.shiftKey && current.via === 'focus' && e.composedPath()[0] === current.anchor) {
      // The button comes right after the number in the tab order.
      e.preventDefault();
      overlay.button.focus();
    }
  });
  on(win, 'scroll', () => {
    if (current?.via === 'pointer') hide();
    else if (current?.anchor) {
      const hit = hitForFocus(current.anchor, scanner.results());
      if (hit) show(hit, 'focus', current.anchor);
      else hide();
    }
  });
  on(win, 'resize', () => hide(), false);

  // ---- tel: and callto: links ----
  on(doc, 'click', (e: MouseEvent) => {
    const tel = telClickOf(e, scanner.results());
    if (!tel) return;
    e.preventDefault(); // no operating-system app picker on top of our confirmation
    hide();
    link.send({ type: 'page/call', number: tel.number, source: 'tel-link' }).catch(failed);
  });

  // ---- start ----
  observer.observe(doc, observeOptions);
  try {
    for (const block of visibleBlocks(doc, win.innerWidth, win.innerHeight)) scanner.scanRoot(block);
  } catch {
    // Layout not readable (a detached or hidden frame): plain document order.
  }
  scanner.scanRoot(doc);
  runner.schedule();

  function stop() {
    if (stopped) return;
    stopped = true;
    observer.disconnect();
    runner.stop();
    clearTimeout(flushTimer);
    clearTimeout(hideTimer);
    if (frame) win.cancelAnimationFrame(frame);
    for (const cleanup of cleanups) cleanup();
    overlay?.remove();
    overlay = null;
    current = null;
    scanner.clear();
    // Take this frame's numbers off the badge and the popup list.
    if (lastReportKey && link.alive()) link.send({ type: 'page/numbers', numbers: [], total: 0 }).catch(() => undefined);
  }

  return {
    scanner,
    setAgentName(name) {
      agentName = name;
      if (current && overlay?.visible) {
        const { hit, via, anchor } = current;
        current = null;
        show(hit, via, anchor);
      }
    },
    stop,
  };
}

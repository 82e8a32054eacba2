/**
 * The scanner (./scanner.ts) with the phone library on its own thread: tests, benches, and anything
 * else that reads a DOM where it runs. The content script uses ./scanner.ts createPageScanner, which
 * sends every text to the background and so carries no phone library.
 */
import { findPhoneNumbers, parseTelHref } from './find';
import { PhoneScanner, type HereParser } from './scanner';
import type { ScanOptions, PhoneMatch, Scanner, ScanTargets, TextTarget } from './scan-types';

export type { ScanOptions, TextPhoneMatch, LinkPhoneMatch, InputPhoneMatch, PhoneMatch, TextPiece, TextTarget, ScanTargets, ScanStats, Scanner } from './scan-types';
export { OBSERVED_ATTRIBUTES } from './scan-dom';
export { matchToRange, containerKeyOf } from './match-place';
export { createPageScanner } from './scanner';

const HERE: HereParser = { find: findPhoneNumbers, parseTel: parseTelHref };

/**
 * An incremental scanner for the content script:
 *
 *   const scanner = createScanner({ defaultCountry: 'US', chunkSize: 100 });
 *   scanner.scanRoot(document);
 *   const idle = () => { if (scanner.runChunk()) requestIdleCallback(idle); render(scanner.takeChanges()); };
 *   new MutationObserver((records) => { scanner.scanMutations(records); requestIdleCallback(idle); })
 *     .observe(document, { childList: true, subtree: true, characterData: true });
 */
export function createScanner(options: ScanOptions = {}): Scanner {
  return new PhoneScanner(options, HERE);
}

/** Scan `root` synchronously and return every match. */
export function scanNode(root: Node, options: ScanOptions = {}): PhoneMatch[] {
  const scanner = new PhoneScanner(options, HERE);
  scanner.scanRoot(root);
  scanner.flush();
  return scanner.matches();
}

/**
 * What the finder would read under `root`: per-container texts that pass the digit prefilter,
 * tel:/callto: links and read-only inputs (for benches and debugging).
 */
export function collectTextTargets(root: Node, options: ScanOptions = {}): ScanTargets {
  const texts: TextTarget[] = [];
  const links: Element[] = [];
  const inputs: Element[] = [];
  const scanner = new PhoneScanner(options, HERE, texts);
  const onLink = scanner.onLink.bind(scanner);
  const onInput = scanner.onInput.bind(scanner);
  scanner.onLink = (link, walk) => {
    links.push(link);
    onLink(link, walk);
  };
  scanner.onInput = (input, walk) => {
    inputs.push(input);
    onInput(input, walk);
  };
  scanner.scanRoot(root);
  scanner.flush();
  return { texts, links, inputs };
}

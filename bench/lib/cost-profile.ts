/**
 * Where the content script's time goes: a CDP CPU profile (Profiler.stop's `profile`) split into the
 * finder's stages by the source file and function each sample's frame maps to (through the build's
 * source map). Frames without a script of their own (natives such as getComputedStyle, builtins)
 * count for the nearest caller that has one. Pure; bench/page-cost.ts feeds it.
 */

export type Stage = 'walk' | 'labels + country' | 'candidate search' | 'parse + validation' | 'messages' | 'overlay bookkeeping' | 'start-up and other';
export const STAGES: readonly Stage[] = ['walk', 'labels + country', 'candidate search', 'parse + validation', 'messages', 'overlay bookkeeping', 'start-up and other'];

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Where a frame's code came from: its original source file and the function name there. */
export type Locate = (url: string, line: number, column: number) => { source: string; name: string; line?: number } | null;

/** libphonenumber-js's matcher (the candidate regexps and their loop), as opposed to its parser and metadata. */
const LIBPHONENUMBER_SEARCH = /(?:PhoneNumberMatcher|findNumbers|searchPhoneNumbers|findPhoneNumbersInText|matchPhoneNumberStringAgainstPhoneNumber|Leniency|parsePreCandidate|isValidPreCandidate|isValidCandidate|utf-8|RegExpCache|LRUCache)/;
/** Scanner methods that keep the per-node results the overlay and the reports read. */
const SCAN_BOOKKEEPING = new Set(['sameMatches', 'takeChanges', 'results', 'matches', 'clear', 'pieceAt', 'uncollapse', 'scanMutations']);
/** The DOM reads around a text that say what it is: its field label, and the country the page gives it. */
const LABELS = new Set(['labelFor', 'columnHeader', 'ariaColumnHeader', 'elementText', 'cellIndexOf', 'cellsOf', 'isCell', 'inputLabel']);

/** The stage of one located frame. */
export function stageOf(source: string, name: string): Stage {
  if (source.includes('libphonenumber-js')) return LIBPHONENUMBER_SEARCH.test(source) ? 'candidate search' : 'parse + validation';
  if (/lib\/phone\/(?:find|candidate)\.ts$/.test(source) || /lib\/page\/first-look\.ts$/.test(source)) return 'candidate search';
  if (/lib\/phone\/(?:page-country|place-names|countries)\.ts$/.test(source)) return 'labels + country';
  if (/lib\/phone\/(?:reject|matches-entirely|regexp-cache|parse-error)\.ts$/.test(source)) return 'parse + validation';
  // Sending texts to the background and settling its answers (lib/phone/scan-away.ts, find-batch.ts).
  if (/lib\/phone\/(?:scan-away|find-batch)\.ts$/.test(source)) return 'messages';
  if (/lib\/phone\/(?:match-place|element-matches|tel-href)\.ts$/.test(source)) return 'overlay bookkeeping';
  if (/lib\/phone\/scan-dom\.ts$/.test(source) && LABELS.has(name)) return 'labels + country';
  if (/lib\/phone\/(?:scan|scanner|scan-dom|walk|joints)\.ts$/.test(source)) return SCAN_BOOKKEEPING.has(name) ? 'overlay bookkeeping' : 'walk';
  if (/lib\/page\/shadow-roots\.ts$/.test(source)) return 'walk'; // asked for every element the walk meets
  if (/lib\/page\/(?:content|report|count|messages)\.ts$/.test(source)) return 'messages';
  if (/lib\/page\/click-to-call\.ts$/.test(source)) return name === 'afterScan' ? 'messages' : 'overlay bookkeeping';
  if (/lib\/page\/(?:hit|overlay|idle|tel)\.ts$/.test(source)) return 'overlay bookkeeping';
  return 'start-up and other';
}

/**
 * Milliseconds of self time per stage, for frames of scripts whose URL `isOurs` accepts (and the
 * frames they call). `gc` is the profile's garbage-collector time over the whole renderer.
 */
export function splitProfile(
  profile: CpuProfile,
  isOurs: (url: string) => boolean,
  locate: Locate,
): { stages: Record<Stage, number>; gc: number; total: number; functions: Map<string, number> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, { stage: Stage; where: string } | null>();
  // Each frame's stage, and the function it is (a native: its caller's, then its own name).
  const placeOfNode = (id: number): { stage: Stage; where: string } | null => {
    if (memo.has(id)) return memo.get(id)!;
    const node = byId.get(id)!;
    const { url, lineNumber, columnNumber, functionName } = node.callFrame;
    let place: { stage: Stage; where: string } | null = null;
    if (url && isOurs(url)) {
      const at = locate(url, lineNumber, columnNumber);
      const name = at?.name || functionName || '(anonymous)';
      place = at ? { stage: stageOf(at.source, name), where: `${at.source.split('/').pop()}${at.line ? `:${at.line}` : ''} ${name}` } : { stage: 'start-up and other', where: `${url.split('/').pop()} ${functionName}` };
    } else if (!url && parent.has(id)) {
      const caller = placeOfNode(parent.get(id)!);
      place = caller && { stage: caller.stage, where: `${caller.where} › ${functionName}` };
    }
    memo.set(id, place);
    return place;
  };
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // A sample's time is the delta to the next sample.
  for (let i = 0; i < samples.length; i++) self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  const stages = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  const functions = new Map<string, number>();
  let gc = 0;
  for (const [id, ms] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(garbage collector)') gc += ms;
    const place = placeOfNode(id);
    if (!place) continue;
    stages[place.stage] += ms;
    functions.set(place.where, (functions.get(place.where) ?? 0) + ms);
  }
  return { stages, gc, total: STAGES.reduce((a, s) => a + stages[s], 0), functions };
}

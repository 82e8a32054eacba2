/**
 * Where a CPU profile's time went inside windows of it. The bench marks each window's start and end
 * by running a named function on the profiled thread (`markerSource`); the samples of those markers
 * place the windows on the profile's own clock, which no other clock of the bench shares. Within a
 * window: idle, garbage collection, and the self time of each function (a native's time counts for
 * its nearest caller with a script, as in ./cost-profile.ts). Pure; bench/flood.ts feeds it.
 */
import type { CpuProfile } from './cost-profile';

/** A function that keeps the thread busy ~1 ms under its own name, so a 200 µs sampler sees it. */
export function markerSource(name: string): string {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new Error(`not a function name: ${name}`);
  return `(function ${name}(){const t=performance.now();while(performance.now()-t<1);})()`;
}

export interface ProfileWindow {
  name: string;
  /** Milliseconds from the window's start marker to its end marker. */
  ms: number;
  idleMs: number;
  gcMs: number;
  /** Self time by function ("name file:line"), largest first. */
  functions: Array<[string, number]>;
}

type Where = (url: string, line: number, column: number, functionName: string) => string;

const IDLE = '(idle)';
const GC = '(garbage collector)';

/**
 * For each name, the window between the last sample of `<name>_start` and the first sample of
 * `<name>_end` after it. Names whose markers were not sampled are left out.
 */
export function profileWindows(profile: CpuProfile & { startTime?: number }, names: readonly string[], where: Where): ProfileWindow[] {
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Sample i's time (µs) and how long it stood for (until the next sample).
  const at: number[] = [];
  let t = profile.startTime ?? 0;
  for (let i = 0; i < samples.length; i++) at.push((t += deltas[i] ?? 0));
  const lasts = (i: number) => ((at[i + 1] ?? at[i]!) - at[i]!) / 1000;

  const memo = new Map<number, string>();
  const placeOf = (id: number): string => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const { url, lineNumber, columnNumber, functionName } = byId.get(id)!.callFrame;
    const place = url ? where(url, lineNumber, columnNumber, functionName) : parent.has(id) && byId.get(parent.get(id)!)!.callFrame.functionName !== '(root)' ? placeOf(parent.get(id)!) : functionName || '(native)';
    memo.set(id, place);
    return place;
  };
  const nameAt = (i: number) => byId.get(samples[i]!)?.callFrame.functionName ?? '';

  const out: ProfileWindow[] = [];
  for (const name of names) {
    let start = -1;
    for (let i = 0; i < samples.length; i++) if (nameAt(i) === `${name}_start`) start = i;
    if (start < 0) continue;
    let end = -1;
    for (let i = start + 1; i < samples.length && end < 0; i++) if (nameAt(i) === `${name}_end`) end = i;
    if (end < 0) continue;
    let idleMs = 0;
    let gcMs = 0;
    const self = new Map<string, number>();
    for (let i = start + 1; i < end; i++) {
      const fn = nameAt(i);
      const ms = lasts(i);
      if (fn === IDLE) idleMs += ms;
      else if (fn === GC) gcMs += ms;
      else {
        const place = placeOf(samples[i]!);
        self.set(place, (self.get(place) ?? 0) + ms);
      }
    }
    out.push({ name, ms: (at[end]! - at[start]!) / 1000, idleMs, gcMs, functions: [...self].sort((a, b) => b[1] - a[1]) });
  }
  return out;
}

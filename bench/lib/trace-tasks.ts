/**
 * The main-thread tasks a script ran in, from a Chrome trace (CDP Tracing, categories
 * devtools.timeline and disabled-by-default-devtools.timeline): the renderer main threads' RunTask
 * events that contain an event naming the script's URL (compile, evaluate, function call), in thread
 * time where the trace gives it. Pure.
 */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of the event, µs. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; scriptName?: string } };
}

/** Each renderer main thread's events (a trace holds every process's threads). */
function mainThreads(events: TraceEvent[]): TraceEvent[][] {
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (main.has(key)) (byThread.get(key) ?? byThread.set(key, []).get(key)!).push(e);
  }
  return [...byThread.values()];
}

/** The script an event names (a call, an evaluation, a compile), or ''. */
const scriptUrlOf = (e: TraceEvent) => e.args?.data?.url ?? e.args?.data?.scriptName ?? '';

/** Thread time (ms) of each main-thread task in which a script whose URL starts with `prefix` ran. */
export function scriptTasks(events: TraceEvent[], prefix: string): number[] {
  const tasks: number[] = [];
  for (const list of mainThreads(events)) {
    const marks = list.filter((e) => scriptUrlOf(e).startsWith(prefix)).map((e) => e.ts);
    for (const task of list) {
      if (task.name !== 'RunTask' || task.ph !== 'X' || !task.dur) continue;
      // Thread time where the trace has it: on a shared machine, wall time also counts others' work.
      if (marks.some((ts) => ts >= task.ts && ts <= task.ts + task.dur!)) tasks.push((task.tdur ?? task.dur) / 1000);
    }
  }
  return tasks;
}

/** The longest main-thread task in which a script whose URL starts with `prefix` ran (ms), or 0. */
export function longestTask(events: TraceEvent[], prefix: string): number {
  return Math.max(0, ...scriptTasks(events, prefix));
}

/**
 * All the thread time of the tasks a script ran in (ms): its own cost, read without subtracting two
 * page loads (on a 5,000-row page the page's own load swings by more than a small script costs).
 */
export function scriptTaskTime(events: TraceEvent[], prefix: string): number {
  return scriptTasks(events, prefix).reduce((a, b) => a + b, 0);
}

/**
 * Every main-thread task's thread time (ms), grouped: "script" for the tasks the script ran in, else by
 * what took the task longest (its longest event inside: ParseHTML, Layout, MajorGC…). Two loads of a
 * page, with and without the script, then show where a load difference the script's own tasks do not
 * explain was spent (style, layout and paint it caused, garbage collection).
 */
export function tasksByKind(events: TraceEvent[], prefix: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (kind: string, ms: number) => out.set(kind, (out.get(kind) ?? 0) + ms);
  for (const list of mainThreads(events)) {
    const spans = list.filter((e) => e.ph === 'X' && e.dur);
    for (const task of spans) {
      if (task.name !== 'RunTask') continue;
      const end = task.ts + task.dur!;
      // Scheduler wrappers (a RunTask inside a RunTask) say nothing of the work: look past them.
      const inside = spans.filter((e) => e !== task && !/RunTask$/.test(e.name) && e.ts >= task.ts && e.ts + e.dur! <= end);
      const ms = (task.tdur ?? task.dur!) / 1000;
      const ran = list.some((e) => e.ts >= task.ts && e.ts <= end && scriptUrlOf(e).startsWith(prefix));
      if (ran) add('script', ms);
      else add(inside.reduce<TraceEvent | null>((a, e) => (!a || e.dur! > a.dur! ? e : a), null)?.name ?? '(task alone)', ms);
    }
  }
  return out;
}

const SCRIPT_RUNS = new Set(['EvaluateScript', 'FunctionCall', 'v8.compile', 'v8.run', 'v8.callFunction']);

/**
 * The thread time (ms) of the main-thread tasks from the start of the first one in which a script
 * whose URL `isScript` accepts ran, to the trace's end; null when none ran. A load's time before a
 * script starts is the page's own (its parse, its first layout), the same work with or without the
 * script, and on a 5,000-row page it swings by hundreds of ms from one load to the next: a
 * difference of two loads from their scripts' starts keeps all the script causes (its tasks, and the
 * collection, style and layout after them) and leaves that swing out.
 */
export function timeFromScriptStart(events: TraceEvent[], isScript: (url: string) => boolean): number | null {
  // Top-level tasks only: a scheduler's RunTask inside another is counted in it.
  const tasks: TraceEvent[] = [];
  // Events of the script running (not, say, the request that fetched it).
  const marks: TraceEvent[] = [];
  for (const list of mainThreads(events)) {
    let end = -Infinity;
    for (const t of list.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.dur).sort((a, b) => a.ts - b.ts)) {
      if (t.ts < end) continue;
      end = t.ts + t.dur!;
      tasks.push(t);
    }
    marks.push(...list.filter((e) => SCRIPT_RUNS.has(e.name) && isScript(scriptUrlOf(e))));
  }
  if (marks.length === 0) return null;
  const first = marks.reduce((a, e) => (e.ts < a.ts ? e : a));
  // From the start of the task it ran in (what the script's first task did before it counts too).
  const task = tasks.find((t) => t.pid === first.pid && t.tid === first.tid && first.ts >= t.ts && first.ts <= t.ts + t.dur!);
  const start = task?.ts ?? first.ts;
  return tasks.filter((t) => t.ts >= start).reduce((sum, t) => sum + (t.tdur ?? t.dur!) / 1000, 0);
}

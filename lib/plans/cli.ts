/**
 * `npx voice-agent-qa run plan.json --base-url URL [--junit f] [--json f] [--csv f] [--max-wait min]
 * [--leave-running]`: runs a test plan as one batch and exits with its verdict (exit codes in
 * cli-args.ts EXIT and docs/test-plans.md). The key comes from VOICE_AGENT_API_KEY only: an argument
 * would end up in shell history, CI logs and the process list.
 *
 * SIGINT / SIGTERM abort the run (runPlan stops the batch and waits for the service to confirm), the
 * reports are still written; a second signal exits at once, naming the batch left running.
 */
import { readFile } from 'node:fs/promises';
import { clockReadingFetch } from '../api/clock';
import { createClient } from '../api/client';
import { EXIT, KEY_ENV, parseQaArgs, USAGE, UsageError, type QaArgs } from './cli-args';
import { reportPathProblems, writeReports } from './cli-reports';
import { exitFor, gateLines, gateRun, parseBaseline } from './gate';
import type { RunResult } from './judge';
import { formatDuration, textReport } from './report';
import { PlanNotStarted, runPlan, STOP_WAIT_MS, type PlanClient, type RunEvent, type RunOutcome, type StopOutcome } from './run';
import { parsePlan, problemsText, type TestPlan } from './schema';

export { BASE_URL_ENV, EXIT, KEY_ENV, parseQaArgs, USAGE, UsageError, type QaArgs } from './cli-args';

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

type Signal = 'SIGINT' | 'SIGTERM';

/** Where signals come from and how to leave at once: `process` in the real command. */
export interface Shell {
  signals?: { on(signal: Signal, listener: () => void): unknown; off(signal: Signal, listener: () => void): unknown };
  exit?: (code: number) => void;
}

/** A client that also reads the service's clock headers (the sandbox's speed, like the extension's client). */
function planClient(baseUrl: string, apiKey: string): PlanClient {
  const { fetch: reading, clock } = clockReadingFetch();
  return Object.assign(createClient({ baseUrl, apiKey, fetch: reading }), clock);
}

const stopCommand = (batchId: string) => `POST /batches/${batchId}/stop`;

function stopLine(stop: StopOutcome, waitedFor: string): string {
  if (stop.state === 'stopped') return `batch ${stop.batchId} stopped (the service confirmed it)`;
  if (stop.state === 'deleted') return `batch ${stop.batchId} deleted: it had not been scheduled, nothing was dialled`;
  if (stop.state === 'ended') return `batch ${stop.batchId} had already ended`;
  return `could not confirm within ${waitedFor} that batch ${stop.batchId} stopped${stop.lastProblem ? ` (${stop.lastProblem})` : ''}`;
}

function progress(io: Io, started: number): (event: RunEvent) => void {
  const at = () => `[${formatDuration(Date.now() - started).padStart(7)}]`;
  return (event) => {
    const line = (text: string) => io.stderr(`${at()} ${text}\n`);
    if (event.type === 'batch-created') {
      const what = `${event.calls} call${event.calls === 1 ? '' : 's'}`;
      line(event.round ? `retry ${event.round}: batch ${event.batchId} created: ${what} that never connected, placed again` : `batch ${event.batchId} created: ${what}`);
    }
    else if (event.type === 'scheduled') line(`scheduled at ${event.scheduledAt}: starts in about ${formatDuration(event.startsInMs)}`);
    else if (event.type === 'statuses') line(Object.entries(event.counts).map(([s, n]) => `${n} ${s}`).join(', '));
    else if (event.type === 'finished') line(event.caseId ? `case ${event.caseId}${event.repeat > 1 ? ` #${event.repeat}` : ''} ended ${event.status}` : `a call that matches no case ended ${event.status}`);
    else if (event.type === 'poll-failed') line(`could not read the batch (${event.message}); trying again in ${formatDuration(event.retryInMs)}`);
    else if (event.type === 'deadline') line(`--max-wait reached after ${formatDuration(event.afterMs)}${event.leaveRunning ? ' (--leave-running: the batch is left as it is)' : ''}`);
    else if (event.type === 'stopping') line(`Stopping batch ${event.batchId}: waiting up to ${formatDuration(STOP_WAIT_MS)} for the service to confirm (Ctrl-C again exits at once and leaves it running)`);
    else if (event.type === 'stop-result') line(stopLine(event.stop, formatDuration(STOP_WAIT_MS)));
  };
}

/** The service's words made useful: "Agent not found" names the agent and the likely cause. */
function notStartedText(error: PlanNotStarted, plan: TestPlan): string {
  if (error.status === 404 && /agent not found/i.test(error.message)) {
    return `Agent ${plan.agent_id} not found. Check that ${KEY_ENV} is a key of the account that owns this agent (the plan's agent_id); a key of another account sees none of its agents.`;
  }
  return error.message;
}

/** The baseline given with --baseline, read before anything is dialled; undefined when it cannot be read. */
async function readBaseline(args: QaArgs, io: Io): Promise<RunResult | null | undefined> {
  if (!args.baseline) return null;
  let text: string;
  try {
    text = await readFile(args.baseline, 'utf8');
  } catch (e) {
    io.stderr(`Cannot read the baseline ${args.baseline}: ${(e as Error).message}\nNothing was dialled.\n`);
    return undefined;
  }
  const parsed = parseBaseline(text);
  if (!parsed.ok) {
    io.stderr(`The baseline ${args.baseline} is not a run's JSON report (--json): ${parsed.problem}\nNothing was dialled.\n`);
    return undefined;
  }
  return parsed.run;
}

async function readPlan(args: QaArgs, io: Io): Promise<TestPlan | null> {
  let text: string;
  try {
    text = await readFile(args.planPath, 'utf8');
  } catch (e) {
    io.stderr(`Cannot read the plan file ${args.planPath}: ${(e as Error).message}\n`);
    return null;
  }
  const parsed = parsePlan(text);
  if (!parsed.ok) {
    io.stderr(`The plan ${args.planPath} has problems:\n${problemsText(parsed.problems)}\n`);
    return null;
  }
  // --min-pass-rate stands for the plan's own: a case's min_pass_rate still wins.
  return args.minPassRate === undefined ? parsed.plan : { ...parsed.plan, min_pass_rate: args.minPassRate };
}

export async function main(argv: readonly string[], env: Record<string, string | undefined>, io: Io, shell: Shell = {}): Promise<number> {
  let args: QaArgs;
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      io.stdout(`${USAGE}\n`);
      return EXIT.pass;
    }
    args = parseQaArgs(argv, env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`${e.message}\n\n${USAGE}\n`);
    return EXIT.setup;
  }
  const apiKey = env[KEY_ENV]?.trim();
  if (!apiKey) {
    io.stderr(`Set ${KEY_ENV} to the service's API key.\n`);
    return EXIT.setup;
  }
  const plan = await readPlan(args, io);
  if (!plan) return EXIT.setup;
  const baseline = await readBaseline(args, io);
  if (baseline === undefined) return EXIT.setup;
  const pathProblems = await reportPathProblems(args);
  if (pathProblems.length) {
    io.stderr(`${pathProblems.join('\n')}\nNothing was dialled.\n`);
    return EXIT.setup;
  }

  // First signal: cancel (runPlan stops the batch). Second: leave at once, naming the batch.
  const controller = new AbortController();
  let batchId: string | null = null;
  let received: Signal | null = null;
  const onSignal = (signal: Signal) => () => {
    if (!received) {
      received = signal;
      io.stderr(`${signal}: cancelling the run.\n`);
      controller.abort();
      return;
    }
    io.stderr(
      batchId
        ? `Exiting now: batch ${batchId} was left running and may still dial. Stop it with ${stopCommand(batchId)}.\n`
        : 'Exiting now: no batch had been created.\n',
    );
    (shell.exit ?? (() => undefined))(EXIT[received]);
  };
  const listeners = { SIGINT: onSignal('SIGINT'), SIGTERM: onSignal('SIGTERM') };
  for (const [signal, listener] of Object.entries(listeners)) shell.signals?.on(signal as Signal, listener);

  try {
    const started = Date.now();
    const show = progress(io, started);
    let outcome: RunOutcome;
    try {
      outcome = await runPlan(plan, planClient(args.baseUrl, apiKey), {
        onEvent: (event) => {
          if (event.type === 'batch-created') batchId = event.batchId;
          show(event);
        },
        signal: controller.signal,
        maxWaitMs: args.maxWaitMs,
        atDeadline: args.leaveRunning ? 'leave-running' : 'stop',
      });
    } catch (e) {
      if (!(e instanceof PlanNotStarted)) throw e;
      // ApiError messages are already redacted.
      io.stderr(`The run could not start: ${notStartedText(e, plan)}\n`);
      if (e.stop && !e.stop.confirmed && e.stop.batchId) {
        io.stderr(`Batch ${e.stop.batchId} may have been scheduled and was left running. Stop it with ${stopCommand(e.stop.batchId)}.\n`);
        return EXIT.failed;
      }
      return EXIT.setup;
    }
    const { result, requests, leftRunning } = outcome;
    io.stderr(`${requests} requests to the service\n`);
    if (leftRunning) io.stderr(`Batch ${leftRunning} was left running and may still dial. Stop it with ${stopCommand(leftRunning)}.\n`);
    io.stdout(textReport(result));
    const gate = baseline ? gateRun(baseline, result) : null;
    if (gate) io.stdout(`\n${gateLines(gate).join('\n')}\n`);
    const { written, problems } = await writeReports(args, result);
    for (const file of written) io.stderr(`wrote ${file}\n`);
    for (const problem of problems) io.stderr(`${problem}\n`);
    if (outcome.ended === 'cancelled') return EXIT[received ?? 'SIGINT'];
    const decided = EXIT[exitFor(result, gate)];
    // A report that could not be written fails the job, unless a regression already says more.
    return problems.length && decided !== EXIT.regression ? EXIT.failed : decided;
  } finally {
    for (const [signal, listener] of Object.entries(listeners)) shell.signals?.off(signal as Signal, listener);
  }
}

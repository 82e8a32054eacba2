/**
 * `npm run qa -- run plan.json --base-url URL [--junit f] [--json f] [--csv f]`: runs a test plan
 * as one batch and exits with its verdict — 0 all passed, 1 any case failed or in error, 2 usage,
 * plan or setup problems (nothing was called). The key comes from VOICE_AGENT_API_KEY only: an
 * argument would end up in shell history, CI logs and the process list.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { clockReadingFetch } from '../api/clock';
import { createClient } from '../api/client';
import { isApiError } from '../api/errors';
import { toCsv, toJUnit, toJson } from './export';
import { formatDuration, textReport } from './report';
import { runPlan, type PlanClient, type RunEvent } from './run';
import { parsePlan, problemsText } from './schema';

export const KEY_ENV = 'VOICE_AGENT_API_KEY';
export const BASE_URL_ENV = 'VOICE_AGENT_BASE_URL';

export const USAGE = `Usage: npm run qa -- run <plan.json> --base-url <url> [--junit <file>] [--json <file>] [--csv <file>]

  Runs every case of the plan as one batch of real calls, judges each call, prints a table.
  --base-url <url>   the service (or sandbox) root; default $${BASE_URL_ENV}
  --junit <file>     write the results as JUnit XML
  --json <file>      write the results as JSON
  --csv <file>       write the results as CSV
  --max-wait <min>   stop following after this many minutes (default 60); unfinished cases are errors
  The API key is read from $${KEY_ENV}.
  Exit: 0 all cases pass, 1 a case failed or its call never happened, 2 usage, plan or setup problem.`;

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface QaArgs {
  planPath: string;
  baseUrl: string;
  junit?: string;
  json?: string;
  csv?: string;
  maxWaitMs: number;
}

export function parseQaArgs(argv: readonly string[], env: Record<string, string | undefined> = {}): QaArgs {
  const args = argv.filter((a) => a !== '--');
  const out: Partial<QaArgs> & { maxWaitMs: number } = { maxWaitMs: 60 * 60_000 };
  const positional: string[] = [];
  while (args.length) {
    const arg = args.shift()!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      const v = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : args.shift();
      if (v === undefined || v === '' || v.startsWith('--')) throw new UsageError(`${name} needs a value.`);
      return v;
    };
    if (/^--(api-)?key$|^--token$/.test(name)) {
      throw new UsageError(`The API key is never taken as an argument (it would be kept in shell history and shown in process lists). Set ${KEY_ENV} in the environment instead.`);
    }
    if (name === '--base-url') out.baseUrl = value();
    else if (name === '--junit') out.junit = value();
    else if (name === '--json') out.json = value();
    else if (name === '--csv') out.csv = value();
    else if (name === '--max-wait') {
      const minutes = Number(value());
      if (!(minutes > 0)) throw new UsageError('--max-wait takes a number of minutes above 0.');
      out.maxWaitMs = minutes * 60_000;
    } else if (name.startsWith('-')) throw new UsageError(`Unknown option ${name}.`);
    else positional.push(arg);
  }
  const [command, planPath, ...rest] = positional;
  if (command !== 'run') throw new UsageError(command ? `Unknown command "${command}"; the command is "run".` : 'Missing the command "run".');
  if (!planPath) throw new UsageError('Missing the plan file: run <plan.json>.');
  if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}".`);
  const baseUrl = out.baseUrl ?? env[BASE_URL_ENV];
  if (!baseUrl) throw new UsageError(`Missing --base-url (or ${BASE_URL_ENV}).`);
  try {
    if (!/^https?:$/.test(new URL(baseUrl).protocol)) throw new Error();
  } catch {
    throw new UsageError(`--base-url "${baseUrl}" is not an http(s) URL.`);
  }
  return { ...out, planPath, baseUrl };
}

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** A client that also reads the service's clock headers (the sandbox's speed, like the extension's client). */
function planClient(baseUrl: string, apiKey: string): PlanClient {
  const { fetch: reading, clock } = clockReadingFetch();
  return Object.assign(createClient({ baseUrl, apiKey, fetch: reading }), clock);
}

function progress(io: Io, started: number): (event: RunEvent) => void {
  const at = () => `[${formatDuration(Date.now() - started).padStart(7)}]`;
  return (event) => {
    const line = (text: string) => io.stderr(`${at()} ${text}\n`);
    if (event.type === 'batch-created') line(`batch ${event.batchId} created: ${event.calls} call${event.calls === 1 ? '' : 's'}`);
    else if (event.type === 'scheduled') line(`scheduled at ${event.scheduledAt}: starts in about ${formatDuration(event.startsInMs)}`);
    else if (event.type === 'statuses') line(Object.entries(event.counts).map(([s, n]) => `${n} ${s}`).join(', '));
    else if (event.type === 'finished') line(`execution ${event.executionId} ended ${event.status}`);
    else if (event.type === 'poll-failed') line(`could not read the batch (${event.message}); trying again in ${formatDuration(event.retryInMs)}`);
    else if (event.type === 'gave-up') line(`stopped following after ${formatDuration(event.afterMs)}; unfinished cases are errors`);
  };
}

export async function main(argv: readonly string[], env: Record<string, string | undefined>, io: Io): Promise<number> {
  let args: QaArgs;
  try {
    if (argv.includes('--help') || argv.includes('-h')) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    args = parseQaArgs(argv, env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`${e.message}\n\n${USAGE}\n`);
    return 2;
  }
  const apiKey = env[KEY_ENV]?.trim();
  if (!apiKey) {
    io.stderr(`Set ${KEY_ENV} to the service's API key.\n`);
    return 2;
  }
  let text: string;
  try {
    text = await readFile(args.planPath, 'utf8');
  } catch (e) {
    io.stderr(`Cannot read the plan file ${args.planPath}: ${(e as Error).message}\n`);
    return 2;
  }
  const parsed = parsePlan(text);
  if (!parsed.ok) {
    io.stderr(`The plan ${args.planPath} has problems:\n${problemsText(parsed.problems)}\n`);
    return 2;
  }
  const started = Date.now();
  let outcome;
  try {
    outcome = await runPlan(parsed.plan, planClient(args.baseUrl, apiKey), { onEvent: progress(io, started), maxWaitMs: args.maxWaitMs });
  } catch (e) {
    // Creating or scheduling the batch failed: nothing was dialled. ApiError messages are already redacted.
    io.stderr(`The run could not start: ${isApiError(e) || e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const { result, requests } = outcome;
  io.stderr(`${requests} requests to the service\n`);
  io.stdout(textReport(result));
  const writes: Array<[string | undefined, string]> = [
    [args.junit, toJUnit(result)],
    [args.json, toJson(result)],
    [args.csv, toCsv(result)],
  ];
  for (const [file, content] of writes) {
    if (!file) continue;
    try {
      await writeFile(file, content, 'utf8');
      io.stderr(`wrote ${file}\n`);
    } catch (e) {
      io.stderr(`Cannot write ${file}: ${(e as Error).message}\n`);
      return 2;
    }
  }
  return result.verdict === 'pass' ? 0 : 1;
}

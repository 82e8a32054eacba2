/** The command line's arguments: `run <plan.json> --base-url URL [options]`. Pure; see cli.ts. */
import { checkBaseUrl } from '../settings/checks';

export const KEY_ENV = 'VOICE_AGENT_API_KEY';
export const BASE_URL_ENV = 'VOICE_AGENT_BASE_URL';

/** Exit codes (docs/test-plans.md). 128 + the signal's number, as shells report a job ended by it. */
export const EXIT = { pass: 0, failed: 1, setup: 2, regression: 3, SIGINT: 130, SIGTERM: 143 } as const;

export const USAGE = `Usage: npx voice-agent-qa run <plan.json> --base-url <url> [--junit <file>] [--json <file>] [--csv <file>]
                          [--max-wait <minutes>] [--leave-running] [--baseline <run.json>] [--min-pass-rate <0-1>]

  Runs every case of the plan as one batch of real calls, judges each call, prints a table.
  --base-url <url>     the service (or sandbox) root, https:// (http:// only for loopback); default $${BASE_URL_ENV}
  --junit <file>       write the results as JUnit XML
  --json <file>        write the results as JSON
  --csv <file>         write the results as CSV
  --max-wait <min>     the whole run's limit in minutes, the wait for the start included (default 60);
                       at the limit the batch is stopped and unfinished cases are "not finished"
  --leave-running      at the --max-wait limit, leave the batch running (its id is printed) instead of stopping it
  --baseline <file>    the --json report of an earlier run: pass → fail flips of blocking cases are regressions
                       (exit 3); cases already failing there, and flaky ones, are listed and do not fail the job
  --min-pass-rate <r>  the share of its calls a case must pass, 0 to 1, where the plan's case says none
                       (overrides the plan's min_pass_rate)
  The API key is read from $${KEY_ENV}. Every report path is checked before anything is dialled.
  Ctrl-C (SIGINT) or SIGTERM stops the batch, waits up to 20 s for the service to confirm, writes the
  reports (unfinished cases "cancelled"); a second Ctrl-C exits at once and names the batch left running.
  Exit: 0 every blocking case reached its pass rate (with --baseline: no regression, no new failing case);
        1 a blocking case failed, is in error or not finished, or a report could not be written;
        2 usage, plan or setup problem (nothing was dialled); 3 a regression against --baseline;
        130 cancelled by SIGINT; 143 cancelled by SIGTERM.`;

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
  /** At the --max-wait limit, leave the batch running instead of stopping it. */
  leaveRunning?: true;
  /** An earlier run's JSON report: the regression gate's baseline. */
  baseline?: string;
  /** Overrides the plan's min_pass_rate (0–1). */
  minPassRate?: number;
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
    else if (name === '--leave-running') out.leaveRunning = true;
    else if (name === '--baseline') out.baseline = value();
    else if (name === '--min-pass-rate') {
      const text = value();
      const rate = Number(text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : text);
      if (!Number.isFinite(rate) || rate < 0 || rate > 1 || text.trim() === '') throw new UsageError(`--min-pass-rate takes a share from 0 to 1 (0.8, or 80%); got "${text}".`);
      out.minPassRate = rate;
    }
    else if (name === '--max-wait') {
      const minutes = Number(value());
      if (!(minutes > 0) || !Number.isFinite(minutes)) throw new UsageError('--max-wait takes a number of minutes above 0.');
      out.maxWaitMs = minutes * 60_000;
    } else if (name.startsWith('-')) throw new UsageError(`Unknown option ${name}.`);
    else positional.push(arg);
  }
  const [command, planPath, ...rest] = positional;
  if (command !== 'run') throw new UsageError(command ? `Unknown command "${command}"; the command is "run".` : 'Missing the command "run".');
  if (!planPath) throw new UsageError('Missing the plan file: run <plan.json>.');
  if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}".`);
  const given = out.baseUrl ?? env[BASE_URL_ENV];
  if (!given) throw new UsageError(`Missing --base-url (or ${BASE_URL_ENV}).`);
  // The extension's own rule (lib/settings/checks.ts): HTTPS, or plain HTTP to a loopback address only.
  const checked = checkBaseUrl(given);
  const from = out.baseUrl === undefined ? ` (from ${BASE_URL_ENV})` : '';
  if (!checked.ok) throw new UsageError(`--base-url${from} "${given}": ${checked.error}`);
  const files = [out.junit, out.json, out.csv].filter((f): f is string => !!f);
  const twice = files.find((f, i) => files.indexOf(f) !== i);
  if (twice) throw new UsageError(`${twice} is given for two reports; give each report its own file.`);
  return { ...out, planPath, baseUrl: checked.baseUrl };
}

/**
 * Bench: a test plan (default 100 cases with `repeat: 3`: 300 calls) run as one batch against the sandbox, followed by the run's tracker
 * (lib/plans/run.ts: the batch's executions list, then one full read per execution) — beside a
 * baseline that polls every execution every 1.5 s (what the official dashboard does per call),
 * following a second batch of the same plan after ours, in the same run. Prints requests and the lag from the last execution's
 * end (its terminal `updated_at`) to the verdict.
 *
 *   npx tsx bench/plans.ts [--speed 1] [--cases 100] [--repeat 3]
 *
 * At speed 1 the sandbox keeps real timings (the ≥ 2-minute wait before the start included): about
 * four minutes. Prints figures; asserts nothing.
 */
import { createClient } from '../lib/api/client';
import type { Execution } from '../lib/api/schemas/execution';
import { isTerminalExecutionStatus } from '../lib/api/status-vocabulary';
import { runPlan, type PlanClient } from '../lib/plans/run';
import { checkPlan, type TestPlanInput } from '../lib/plans/schema';
import { OWNER_KEY } from '../sandbox/keys';
import { SEED } from '../sandbox/seed';
import { startSandbox } from '../sandbox/server';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) || fallback : fallback;
};
const speed = arg('--speed', 1);
const CASES = arg('--cases', 100);
const REPEAT = arg('--repeat', 3);
const BASELINE_MS = 1_500;
/** `--no-baseline`: ours only (half the time), to look at where the lag goes. */
const WITH_BASELINE = !process.argv.includes('--no-baseline');

/** CASES cases: mostly answered calls with each intent, plus busy, no-answer, voicemail and failed lines; each called REPEAT times. */
function benchPlan(): TestPlanInput {
  const intents = ['callback', 'decline', 'question', 'hangup'];
  const special = ['1001', '1002', '1004', '1003', '1001', '1002'];
  const cases = Array.from({ length: CASES }, (_, i) => {
    const last4 = i < special.length ? special[i]! : String(2000 + i);
    const intent = intents[i % intents.length]!;
    const status = last4 === '1001' ? 'busy' : last4 === '1002' ? 'no-answer' : last4 === '1004' ? 'voicemail' : last4 === '1003' ? 'failed' : 'completed';
    return {
      id: `case-${i + 1}`,
      label: `${status} / ${intent}`,
      contact_number: `+1415555${last4}`,
      variables: { name: `Caller ${i + 1}`, intent },
      expect: { status: status as 'completed' },
    };
  });
  return { format: 'voice-agent-test-plan', version: 1, name: `Bench: ${CASES} cases × ${REPEAT}`, agent_id: SEED.A.agents.sales, repeat: REPEAT, cases };
}

/** A client whose requests are counted, reading the sandbox's clock speed like the CLI does. */
function countingClient(baseUrl: string) {
  let requests = 0;
  let scale = 1;
  /** Each list poll (sent, answered, rows terminal in its answer) and each full read (sent, answered), local clock. */
  const seen = { lists: [] as Array<{ sent: number; answered: number; terminal: number; rows: number }>, reads: [] as Array<{ sent: number; answered: number }> };
  const counted: typeof fetch = async (input, init) => {
    requests++;
    const sent = Date.now();
    const response = await fetch(input, init);
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    if (/^\/batch(?:es)?\/[^/]+\/executions$/.test(path)) {
      const rows = (await response.clone().json()) as Array<{ status: string }>;
      seen.lists.push({ sent, answered: Date.now(), terminal: rows.filter((e) => isTerminalExecutionStatus(e.status)).length, rows: rows.length });
    } else if (/^\/executions\/[^/]+$/.test(path)) seen.reads.push({ sent, answered: Date.now() });
    const s = Number(response.headers.get('x-sandbox-speed'));
    if (s > 0) scale = s;
    return response;
  };
  const client = Object.assign(createClient({ baseUrl, apiKey: OWNER_KEY, fetch: counted }), { timeScale: () => scale });
  return { client, requests: () => requests, seen };
}

/** The baseline's run: a second batch of the same plan, every execution polled from its schedule on. */
async function baselineRunOf(baseUrl: string, plan: Parameters<typeof runPlan>[0]) {
  process.stderr.write('The baseline, on a second batch of the same plan…\n');
  const second = countingClient(baseUrl);
  let baselineRun: Promise<Awaited<ReturnType<typeof baseline>>> | undefined;
  const client: PlanClient = {
    ...second.client,
    scheduleBatch: async (batchId, at) => {
      const answer = await second.client.scheduleBatch(batchId, at);
      baselineRun = baseline(baseUrl, batchId);
      return answer;
    },
  };
  await runPlan(plan, client);
  return baselineRun!;
}

/** The baseline: from the schedule on, every execution polled every 1.5 s until terminal. */
async function baseline(baseUrl: string, batchId: string) {
  const { client, requests } = countingClient(baseUrl);
  const ids = (await client.listBatchExecutions(batchId)).map((e) => e.id);
  const finished = new Map<string, Execution>();
  while (finished.size < ids.length) {
    await Promise.all(
      ids
        .filter((id) => !finished.has(id))
        .map(async (id) => {
          const e = await client.getExecution(id);
          if (isTerminalExecutionStatus(e.status)) finished.set(id, e);
        }),
    );
    if (finished.size < ids.length) await new Promise((r) => setTimeout(r, BASELINE_MS));
  }
  return { verdictAt: Date.now(), requests: requests(), executions: [...finished.values()] };
}

const lastEnd = (executions: readonly Execution[]) => Math.max(...executions.map((e) => Date.parse(e.updated_at ?? '')));
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  // The baseline alone makes 800 requests a minute: lift the sandbox's per-key limit so it measures polling, not 429s.
  const sandbox = await startSandbox({ port: 0, speed, rateLimitPerMinute: 100_000 });
  try {
    const parsed = checkPlan(benchPlan());
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    // Ours alone first, then the baseline on a second run of the same plan: 300 calls polled every
    // 1.5 s load the sandbox (in this process) enough to delay whatever shares it.
    const ours = countingClient(sandbox.url);
    const started = Date.now();
    process.stderr.write(`${CASES} cases × ${REPEAT} at sandbox speed ${speed}: the start is ≥ 2 min ahead…\n`);
    let ended = 0;
    const run = await runPlan(parsed.plan, ours.client, {
      onEvent: (e) => {
        if (e.type === 'finished' && ++ended % 50 === 0) process.stderr.write(`  ${ended} calls ended\n`);
      },
    });
    const ourVerdictAt = Date.now();
    const base = WITH_BASELINE ? await baselineRunOf(sandbox.url, parsed.plan) : null;
    const end = lastEnd(Object.values(run.follow!.finished));
    console.log(`Test plan run: ${CASES} cases × repeat ${REPEAT} = ${run.result.calls} calls, one batch, sandbox speed ${speed} (${s(ourVerdictAt - started)} in all)`);
    console.log(`verdict ${run.result.verdict}: ${run.result.counts.pass} passed, ${run.result.counts.fail} failed, ${run.result.counts.error} in error`);
    console.log('');
    console.log('                              requests   lag last end → verdict');
    console.log(`run tracker (list + 1 read)   ${String(ours.requests()).padStart(8)}   ${s(ourVerdictAt - end).padStart(8)}`);
    console.log(`  (runPlan's own count: ${run.requests})`);
    if (base) {
      console.log(`every execution every 1.5 s   ${String(base.requests).padStart(8)}   ${s(base.verdictAt - lastEnd(base.executions)).padStart(8)}`);
      console.log(`ratio (baseline / ours)       ${(base.requests / ours.requests()).toFixed(1).padStart(7)}×`);
    }
    // The first list answer in which every row was terminal, and the reads made after it.
    const complete = ours.seen.lists.find((l) => l.rows > 0 && l.terminal === l.rows);
    if (complete) {
      const before = ours.seen.lists[ours.seen.lists.indexOf(complete) - 1];
      const reads = ours.seen.reads.filter((r) => r.sent >= complete.answered);
      const lastRead = Math.max(...reads.map((r) => r.answered));
      const at = (t: number) => `${t >= end ? '+' : '−'}${s(Math.abs(t - end))}`;
      console.log(`  where the lag goes (from the last end): the poll before ${before ? `answered ${at(before.answered)} with ${before.rows - before.terminal} open` : 'none'};`);
      console.log(`    the first poll with every row ended sent ${at(complete.sent)}, answered ${at(complete.answered)}; ${reads.length} full reads after it, the last answered ${at(lastRead)}; the verdict ${at(ourVerdictAt)}`);
    }
    console.log(`(run tracker: ${run.follow!.requests.list} list polls, ${run.follow!.requests.full} full reads, ${run.follow!.requests.batch} batch reads, 2 to create and schedule)`);
  } finally {
    await sandbox.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});

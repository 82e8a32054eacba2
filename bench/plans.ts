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
  /** When each list poll was answered, and each full read (local clock). */
  const seen = { lists: [] as number[], reads: [] as number[] };
  const counted: typeof fetch = async (input, init) => {
    requests++;
    const response = await fetch(input, init);
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    if (/^\/batch(?:es)?\/[^/]+\/executions$/.test(path)) seen.lists.push(Date.now());
    else if (/^\/executions\/[^/]+$/.test(path)) seen.reads.push(Date.now());
    const s = Number(response.headers.get('x-sandbox-speed'));
    if (s > 0) scale = s;
    return response;
  };
  const client = Object.assign(createClient({ baseUrl, apiKey: OWNER_KEY, fetch: counted }), { timeScale: () => scale });
  return { client, requests: () => requests, seen };
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
    process.stderr.write('The baseline, on a second batch of the same plan…\n');
    const second = countingClient(sandbox.url);
    let baselineRun: Promise<Awaited<ReturnType<typeof baseline>>> | undefined;
    const client: PlanClient = {
      ...second.client,
      scheduleBatch: async (batchId, at) => {
        const answer = await second.client.scheduleBatch(batchId, at);
        baselineRun = baseline(sandbox.url, batchId);
        return answer;
      },
    };
    await runPlan(parsed.plan, client);
    const base = await baselineRun!;
    const end = lastEnd(Object.values(run.follow!.finished));
    console.log(`Test plan run: ${CASES} cases × repeat ${REPEAT} = ${run.result.calls} calls, one batch, sandbox speed ${speed} (${s(ourVerdictAt - started)} in all)`);
    console.log(`verdict ${run.result.verdict}: ${run.result.counts.pass} passed, ${run.result.counts.fail} failed, ${run.result.counts.error} in error`);
    console.log('');
    console.log('                              requests   lag last end → verdict');
    console.log(`run tracker (list + 1 read)   ${String(ours.requests()).padStart(8)}   ${s(ourVerdictAt - end).padStart(8)}`);
    console.log(`  (runPlan's own count: ${run.requests})`);
    console.log(`every execution every 1.5 s   ${String(base.requests).padStart(8)}   ${s(base.verdictAt - lastEnd(base.executions)).padStart(8)}`);
    console.log(`ratio (baseline / ours)       ${(base.requests / ours.requests()).toFixed(1).padStart(7)}×`);
    const detected = ours.seen.lists.find((t) => t >= end);
    const lastRead = Math.max(...ours.seen.reads);
    if (detected !== undefined) console.log(`  where the lag goes: the list poll that saw the last end +${s(detected - end)}, the last full read +${s(lastRead - end)}, the verdict +${s(ourVerdictAt - end)}`);
    console.log(`(run tracker: ${run.follow!.requests.list} list polls, ${run.follow!.requests.full} full reads, ${run.follow!.requests.batch} batch reads, 2 to create and schedule)`);
  } finally {
    await sandbox.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});

// Exports of a run: JUnit XML checked with a real XML parser, JSON, and CSV read back with the sandbox's CSV reader.
import { describe, expect, it } from 'vitest';
import { parseStringPromise } from 'xml2js';
import { csvRecords } from '../../../sandbox/csv';
import { judgeRun } from '../../../lib/plans/judge';
import { toCsv, toJUnit, toJson, xmlEscape } from '../../../lib/plans/export';
import { liveExecution, plan, specExecution } from './fixtures';

const p = plan({
  name: 'Sales <smoke> & "friends"',
  cases: [
    { id: 'ok', label: 'Passes', contact_number: '+14155550123', expect: { status: 'completed' } },
    { id: 'field', label: 'Fails, on a field: "interested" <bool>', contact_number: '+14155550124', expect: { extracted: { interested: { equals: true } }, transcript: { contains: ['refund & return'] } } },
    { id: 'never', label: 'Never placed', contact_number: '+14155550125' },
  ],
});
const run = judgeRun(
  p,
  new Map([
    ['ok', liveExecution()],
    ['field', specExecution({ transcript: 'user: <b>no</b> \u0001 & bye' })],
  ]),
  { batchId: 'f'.repeat(32), startedAt: Date.parse('2026-11-23T10:00:00Z'), finishedAt: Date.parse('2026-11-23T10:03:00Z') },
);

describe('JUnit XML', () => {
  it('parses, with counts and one testcase per case', async () => {
    const xml = toJUnit(run);
    const doc = await parseStringPromise(xml, { strict: true });
    const suite = doc.testsuites.testsuite[0];
    expect(doc.testsuites.$).toMatchObject({ name: 'Sales <smoke> & "friends"', tests: '3', failures: '1', errors: '1', time: '180.000' });
    expect(suite.$).toMatchObject({ tests: '3', failures: '1', errors: '1', skipped: '0', timestamp: '2026-11-23T10:00:00.000Z' });
    expect(suite.testcase.map((t: any) => t.$.name)).toEqual(['ok: Passes', 'field: Fails, on a field: "interested" <bool>', 'never: Never placed']);
    expect(suite.testcase[0].failure).toBeUndefined();
    // The message starts with the failure's class (triage.ts), then the first failing expectation.
    expect(suite.testcase[1].failure[0].$.message).toBe('[agent] extracted.interested equals: expected equals true, got "false"');
    expect(suite.testcase[1].failure[0]._).toContain('transcript contains: expected says "refund & return", got not said');
    expect(suite.testcase[2].error[0].$.message).toBe('[account or service] No execution of the batch carries this case.');
    const triage = (i: number) => suite.testcase[i].properties[0].property.find((x: any) => x.$.name === 'triage')?.$.value;
    expect([triage(0), triage(1), triage(2)]).toEqual([undefined, 'agent', 'account-or-service']);
    const props = Object.fromEntries(suite.testcase[0].properties[0].property.map((x: any) => [x.$.name, x.$.value]));
    expect(props).toMatchObject({ status: 'completed', contact_number: '+14155550123', cost_cents: '12.5' });
  });
  it('escapes markup and drops characters XML cannot hold', () => {
    expect(xmlEscape(`a<b>&"c"'\u0001\u0007d`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d');
  });
});

describe('JSON and CSV', () => {
  it('JSON holds the whole result, versioned', () => {
    const back = JSON.parse(toJson(run));
    expect(back).toMatchObject({ format: 'voice-agent-test-run', version: 1, verdict: 'fail', counts: { pass: 1, fail: 1, error: 1 } });
    expect(back.cases[1].outcomes[0]).toEqual({ name: 'extracted.interested equals', passed: false, expected: 'equals true', actual: '"false"' });
  });
  it('CSV: one row per case, quoted so commas, quotes and line breaks survive', () => {
    const { header, records } = csvRecords(toCsv(run));
    expect(header).toEqual(['case_id', 'label', 'contact_number', 'verdict', 'status', 'duration_s', 'cost_cents', 'execution_id', 'problems', 'triage', 'passes', 'calls', 'pass_rate', 'flaky', 'gate']);
    expect(records).toHaveLength(3);
    expect(records[1]).toMatchObject({ case_id: 'field', label: 'Fails, on a field: "interested" <bool>', verdict: 'fail', status: 'completed', duration_s: '30', cost_cents: '8' });
    expect(records[1]!.problems!.split('\n')).toEqual([
      'extracted.interested equals: expected equals true, got "false"',
      'transcript contains: expected says "refund & return", got not said',
    ]);
    expect(records[2]).toMatchObject({ verdict: 'error', status: '', problems: 'No execution of the batch carries this case.' });
  });
});

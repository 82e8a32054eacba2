import { describe, expect, it } from 'vitest';
import type { CaseResult, RunResult } from '../../../lib/plans/judge';
import { textReport } from '../../../lib/plans/report';

const passed = (id: string, costCents: number | null): CaseResult => ({
  caseId: id,
  label: id,
  contactNumber: '+14155550123',
  verdict: 'pass',
  error: null,
  outcomes: [],
  executionId: `exec-${id}`,
  status: 'completed',
  durationSeconds: 30,
  costCents,
  transcript: null,
  extracted: null,
});

describe("the command line's report shows money as the extension does", () => {
  it('each case and the total in dollars, two decimals, more only under a cent', () => {
    const run: RunResult = {
      planName: 'p',
      agentId: 'a',
      batchId: 'b',
      verdict: 'pass',
      counts: { pass: 3, fail: 0, error: 0 },
      cases: [passed('long', 463.4), passed('tiny', 0.5), passed('none', null)],
      durationMs: 3000,
      totalCostCents: 463.9,
      startedAt: null,
      finishedAt: null,
    };
    const text = textReport(run);
    expect(text).toMatch(/^PASS\s+long\s.*\$4\.63/m);
    expect(text).toMatch(/^PASS\s+tiny\s.*\$0\.005/m);
    expect(text).toContain('cost $4.64 ·');
    expect(text).not.toMatch(/¢|USD/);
  });
});

/**
 * The GitHub Actions workflow shipped in examples/ (issue 21 §4): parsed with a real YAML parser
 * (js-yaml 4, installed with the project through eslint's @eslint/eslintrc), checked for what the
 * docs promise (pull requests and a schedule, the JUnit file uploaded even when the job fails, the key
 * from a secret), and its command line read by the command line's own argument parser.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { parseQaArgs } from '../../../lib/plans/cli-args';

const ROOT = join(__dirname, '../../..');
const text = readFileSync(join(ROOT, 'examples/voice-agent-qa.yml'), 'utf8');

describe('examples/voice-agent-qa.yml', () => {
  const doc = load(text) as any;
  const steps: any[] = doc.jobs['test-plan'].steps;
  const runStep = steps.find((s) => typeof s.run === 'string' && s.run.includes('voice-agent-qa run'));

  it('is YAML that runs on pull requests and on a schedule (a valid five-field cron)', () => {
    expect(Object.keys(doc.on)).toEqual(expect.arrayContaining(['pull_request', 'schedule']));
    const cron: string = doc.on.schedule[0].cron;
    expect(cron.split(' ')).toHaveLength(5);
    expect(doc.jobs['test-plan']['runs-on']).toBe('ubuntu-latest');
  });

  it('runs the plan with a baseline and a JUnit file, the key from a secret, never on the command line', () => {
    expect(runStep.env.VOICE_AGENT_API_KEY).toBe('${{ secrets.VOICE_AGENT_API_KEY }}');
    const line: string = runStep.run.split('\n').find((l: string) => l.startsWith('npx voice-agent-qa'));
    const argv = line.split(/\s+/).slice(2);
    const args = parseQaArgs(argv, { VOICE_AGENT_BASE_URL: 'https://api.example.com' });
    expect(args).toMatchObject({ planPath: 'qa/plan.json', baseline: 'qa/baseline.json', junit: 'results/junit.xml', json: 'results/run.json' });
    // The report folder is made before the run (paths are checked before anything is dialled).
    expect(runStep.run.split('\n')[0]).toBe('mkdir -p results');
  });

  it('uploads the results even when the run failed the job', () => {
    const upload = steps.find((s) => String(s.uses).startsWith('actions/upload-artifact@'));
    expect(upload.if).toBe('always()');
    expect(upload.with.path).toBe('results/');
    expect(steps.indexOf(upload)).toBeGreaterThan(steps.indexOf(runStep));
  });
});

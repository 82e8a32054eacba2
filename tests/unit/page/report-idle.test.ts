import { describe, expect, it } from 'vitest';
import { createIdleRunner, type IdleHost } from '../../../lib/page/idle';
import { numbersToReport, reportKey } from '../../../lib/page/report';
import type { PhoneMatch } from '../../../lib/phone/scan';

const match = (e164: string, raw: string) => ({ source: 'link', e164, raw }) as unknown as PhoneMatch;

describe('numbersToReport', () => {
  it('keeps the first place each number shows, tidies the raw text, and caps the list', () => {
    const list = numbersToReport([match('+14155550132', '(415)\n 555-0132'), match('+14155550132', '415.555.0132'), match('+442079460958', '')]);
    expect(list).toEqual([
      { raw: '(415) 555-0132', e164: '+14155550132' },
      { raw: '+442079460958', e164: '+442079460958' },
    ]);
    const many = Array.from({ length: 700 }, (_, i) => match(`+1415555${String(i).padStart(4, '0')}`, 'x'));
    expect(numbersToReport(many)).toHaveLength(500);
    expect(reportKey(list)).not.toBe(reportKey(list.slice(1)));
  });
});

describe('createIdleRunner', () => {
  function fakeHost(withIdle: boolean) {
    const queue: (() => void)[] = [];
    const host: IdleHost = {
      setTimeout: (cb) => queue.push(cb),
      clearTimeout: () => undefined,
      ...(withIdle ? { requestIdleCallback: (cb: (d: { timeRemaining(): number; didTimeout: boolean }) => void) => queue.push(() => cb({ timeRemaining: () => 50, didTimeout: false })) } : {}),
    };
    return { host, queue, tick: () => queue.shift()?.() };
  }

  it('runs chunks until the slice budget is spent, then yields to the browser', () => {
    let clock = 0;
    let left = 10;
    const { host, queue, tick } = fakeHost(true);
    const slices: boolean[] = [];
    const runner = createIdleRunner(host, () => {
      clock += 3; // each chunk takes 3 ms
      return --left > 0;
    }, { sliceMs: 8, now: () => clock, onSlice: (more) => slices.push(more) });
    runner.schedule();
    runner.schedule(); // one pending slice at a time
    expect(queue).toHaveLength(1);
    tick();
    expect(left).toBe(7); // 3 chunks: 0→3→6→9 ms
    while (queue.length) tick();
    expect(left).toBe(0);
    expect(slices.at(-1)).toBe(false);
  });

  it("ends the slice when a step says 'yield', and goes on in the next one", () => {
    const { host, queue, tick } = fakeHost(true);
    const steps: string[] = [];
    const work = ['warm-a', 'warm-b', 'chunk', 'chunk'];
    const runner = createIdleRunner(host, () => {
      const step = work.shift()!;
      steps.push(step);
      return step.startsWith('warm') ? 'yield' : work.length > 0;
    }, { sliceMs: 8, now: () => 0 });
    runner.schedule();
    tick();
    expect(steps).toEqual(['warm-a']);
    tick();
    expect(steps).toEqual(['warm-a', 'warm-b']);
    tick();
    expect(steps).toEqual(['warm-a', 'warm-b', 'chunk', 'chunk']); // plain chunks share a slice
    expect(queue).toHaveLength(0);
  });

  it('falls back to timers without requestIdleCallback, and stops', () => {
    let runs = 0;
    const { host, queue, tick } = fakeHost(false);
    const runner = createIdleRunner(host, () => ++runs < 100, { now: () => 0 });
    runner.schedule();
    tick();
    expect(runs).toBeGreaterThan(0);
    runner.stop();
    const before = runs;
    while (queue.length) tick();
    expect(runs).toBe(before);
  });
});

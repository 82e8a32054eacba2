import { describe, expect, it } from 'vitest';
import { benchNames, selectBenches } from '../../../bench/lib/select';

describe('benchNames', () => {
  it('finds every bench/*.ts, new ones included, but not the runner, *-entry.ts helpers or other files', () => {
    const files = ['tracker.ts', 'finder.c2d-entry.ts', 'finder.ours-entry.ts', 'finder.ts', 'popup.ts', 'run.ts', 'lib', 'README.md', 'types.d.ts', 'panel.ts'];
    expect(benchNames(files)).toEqual(['finder', 'panel', 'popup', 'tracker']);
    expect(benchNames([])).toEqual([]);
  });
});

describe('selectBenches', () => {
  const all = ['finder', 'popup', 'tracker'];

  it('runs every bench when none is named, passing options through', () => {
    expect(selectBenches(all, [])).toEqual({ benches: all, args: [] });
    expect(selectBenches(all, ['--speed', '1'])).toEqual({ benches: all, args: ['--speed', '1'] });
  });

  it('runs only the named ones, in the order given, once each, with the remaining options', () => {
    expect(selectBenches(all, ['finder'])).toEqual({ benches: ['finder'], args: [] });
    expect(selectBenches(all, ['tracker', '--speed', '1'])).toEqual({ benches: ['tracker'], args: ['--speed', '1'] });
    expect(selectBenches(all, ['--speed', '1', 'tracker'])).toEqual({ benches: ['tracker'], args: ['--speed', '1'] });
    expect(selectBenches(all, ['popup', 'finder', 'popup'])).toEqual({ benches: ['popup', 'finder'], args: [] });
    expect(selectBenches(all, ['--speed=2', 'tracker'])).toEqual({ benches: ['tracker'], args: ['--speed=2'] });
  });

  it('refuses a word that is no bench and no option value, naming the benches', () => {
    expect(selectBenches(all, ['fnder'])).toEqual({ error: 'No bench named "fnder" (benches: finder, popup, tracker).' });
    expect(selectBenches(all, ['--speed=2', 'trackr'])).toMatchObject({ error: expect.stringContaining('"trackr"') });
    expect(selectBenches(all, ['finder', 'run'])).toMatchObject({ error: expect.stringContaining('"run"') });
  });
});

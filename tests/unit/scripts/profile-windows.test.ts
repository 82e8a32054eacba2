/**
 * The flood bench's split of the worker's profile by round: windows placed by the marker functions'
 * samples, idle and GC apart, a native's time given to its caller.
 */
import { describe, expect, it } from 'vitest';
import { markerSource, profileWindows } from '../../../bench/lib/profile-windows';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0, columnNumber: 0 });

// root › (idle) | (garbage collector) | confirm0_start | confirm0_end | find (script) › parse (native)
const profile = {
  startTime: 0,
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 4, 5, 6] },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('(garbage collector)') },
    { id: 4, callFrame: frame('confirm0_start') },
    { id: 5, callFrame: frame('confirm0_end') },
    { id: 6, callFrame: frame('find', 'chrome-extension://x/background.js'), children: [7] },
    { id: 7, callFrame: frame('parse') },
  ],
  // µs between samples: each sample stands until the next one.
  samples: [2, 4, 4, 6, 7, 2, 3, 5, 5, 6],
  timeDeltas: [0, 1000, 1000, 1000, 2000, 3000, 4000, 5000, 1000, 1000],
};

describe('profileWindows', () => {
  it('finds each window between its markers and splits its time', () => {
    const where = (url: string, _line: number, _col: number, name: string) => `${name} ${url.split('/').pop()}`;
    const [w] = profileWindows(profile, ['confirm0', 'stop0'], where);
    // From the last start marker (t=2 ms) to the first end marker (t=17 ms): the marker's own 1 ms, find 2 + its native 3, idle 4, GC 5.
    expect(w).toEqual({ name: 'confirm0', ms: 15, idleMs: 4, gcMs: 5, functions: [['find background.js', 5]] });
  });

  it('leaves out a window whose markers were not sampled', () => {
    expect(profileWindows(profile, ['stop3'], () => '')).toEqual([]);
  });

  it('marks with a named function only', () => {
    expect(markerSource('stop3_end')).toContain('function stop3_end(');
    expect(() => markerSource('x);alert(1')).toThrow();
  });
});

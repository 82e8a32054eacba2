/**
 * The page-cost bench's verdict: every ratio it printed against its aim, in one closing line, so a
 * run says by itself which shape is over by which measure (the tables above hold the figures).
 */

export interface Measured {
  shape: string;
  /** The measure's name as the tables head it ("whole loads", "tasks", …). */
  measure: string;
  /** Ours over c2d; not finite when c2d's figure was 0 (then it cannot be within). */
  ratio: number;
  /** The largest ratio within the aim (1/3 on the large pages, 1 on the small ones). */
  aim: number;
}

/** Strictly: 0.334 prints as 0.33 but is over ⅓. */
const within = (m: Measured) => Number.isFinite(m.ratio) && m.ratio <= m.aim;

export function verdict(measured: readonly Measured[]): string {
  if (measured.length === 0) return 'Nothing measured.';
  const over = measured.filter((m) => !within(m));
  const shapes = new Set(measured.map((m) => m.shape)).size;
  const measures = [...new Set(measured.map((m) => m.measure))];
  if (over.length === 0) return `Within the aim: ${shapes === 1 ? 'the one shape' : `all ${shapes} shapes`} by every measure (${measures.join(', ')}).`;
  const list = over.map((m) => `${m.shape} by ${m.measure} (${Number.isFinite(m.ratio) ? m.ratio.toFixed(3) : 'n/a'}, aim ≤ ${m.aim === 1 ? '1' : m.aim.toFixed(3)})`);
  return `Over the aim, ${over.length} of ${measured.length}: ${list.join('; ')}.`;
}

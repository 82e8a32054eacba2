/**
 * Which benches `npm run bench` runs, and with what arguments: every `bench/*.ts` except the runner
 * and `*-entry.ts` helpers (bundled into pages by a bench); bench names among the arguments pick a
 * few, everything else (`--speed 1`) is passed to each bench run.
 */

export type BenchSelection = { benches: string[]; args: string[] } | { error: string };

/** Bench names (file names without `.ts`) found among a directory's file names, sorted. */
export function benchNames(files: string[]): string[] {
  return files
    .filter((f) => f.endsWith('.ts') && !f.endsWith('-entry.ts') && !f.endsWith('.d.ts') && f !== 'run.ts')
    .map((f) => f.slice(0, -'.ts'.length))
    .sort();
}

export function selectBenches(available: string[], argv: string[]): BenchSelection {
  const picked: string[] = [];
  const args: string[] = [];
  argv.forEach((arg) => {
    if (available.includes(arg)) {
      if (!picked.includes(arg)) picked.push(arg);
      return;
    }
    args.push(arg);
  });
  // A bare word that is neither a bench nor an option's value is most likely a mistyped bench name.
  const stray = args.find((arg, i) => !arg.startsWith('-') && !(args[i - 1]?.startsWith('-') && !args[i - 1]!.includes('=')));
  if (stray !== undefined) return { error: `No bench named "${stray}" (benches: ${available.join(', ')}).` };
  return { benches: picked.length > 0 ? picked : available, args };
}

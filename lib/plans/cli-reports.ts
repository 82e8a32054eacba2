/**
 * The command line's report files: every path is checked before anything is dialled (a CI job should not
 * pay for calls whose results it cannot keep), and after the run each is written on its own, so one that
 * fails does not stop the others.
 */
import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { toCsv, toJUnit, toJson } from './export';
import type { RunResult } from './judge';

export interface ReportPaths {
  junit?: string;
  json?: string;
  csv?: string;
}

const code = (e: unknown) => (e as NodeJS.ErrnoException)?.code;
const text = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Why `file` cannot be written, or null when it can (an existing writable file, or a new one in a writable folder). */
export async function unwritable(file: string): Promise<string | null> {
  const path = resolve(file);
  try {
    if ((await stat(path)).isDirectory()) return `${file} is a folder, not a file.`;
    await access(path, constants.W_OK);
    return null;
  } catch (e) {
    if (code(e) !== 'ENOENT') return `${file} cannot be written: ${text(e)}`;
  }
  const folder = dirname(path);
  try {
    if (!(await stat(folder)).isDirectory()) return `${file} cannot be written: ${folder} is not a folder.`;
    await access(folder, constants.W_OK | constants.X_OK);
    return null;
  } catch (e) {
    return `${file} cannot be written: ${code(e) === 'ENOENT' ? `the folder ${folder} does not exist` : text(e)}.`;
  }
}

/** Every report path's problem, in the order given. */
export async function reportPathProblems(paths: ReportPaths): Promise<string[]> {
  const files = [paths.junit, paths.json, paths.csv].filter((f): f is string => !!f);
  return (await Promise.all(files.map(unwritable))).filter((p): p is string => p !== null);
}

/** Writes each report asked for; answers the files written and the problems of those that were not. */
export async function writeReports(paths: ReportPaths, result: RunResult): Promise<{ written: string[]; problems: string[] }> {
  const writes: Array<[string | undefined, () => string]> = [
    [paths.junit, () => toJUnit(result)],
    [paths.json, () => toJson(result)],
    [paths.csv, () => toCsv(result)],
  ];
  const written: string[] = [];
  const problems: string[] = [];
  for (const [file, content] of writes) {
    if (!file) continue;
    try {
      await writeFile(file, content(), 'utf8');
      written.push(file);
    } catch (e) {
      problems.push(`Cannot write ${file}: ${text(e)}`);
    }
  }
  return { written, problems };
}

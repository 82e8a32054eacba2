/**
 * One door for calls (docs/placement.md): everything that makes the service dial, or stops or removes
 * what dials, goes through the placement engine in lib/placement/. Checked over the shipped code: no
 * module outside lib/placement/ (and lib/api/, which defines the requests) names one of the client's
 * placing methods or sends a request to their routes. The sandbox plays the service and is left out.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const DIRS = ['lib', 'components', 'entrypoints', 'scripts', 'proxy', 'bin'];
const ALLOWED = [`lib${sep}placement${sep}`, `lib${sep}api${sep}`];

/** The client's methods that create, schedule, stop or delete a batch, or start or stop a `POST /call` (lib/api/client.ts). */
export const PLACING_METHODS = ['createBatch', 'scheduleBatch', 'stopBatch', 'deleteBatch', 'startCall', 'stopCall'] as const;

/** A call or a mention of one of the methods (`client.createBatch(`, `{ stopBatch }`, `client['stopBatch']`), or a placing route by hand. */
const NAMES = PLACING_METHODS.join('|');
const PLACING = new RegExp(`(?:\\.|\\[['"\`])(?:${NAMES})\\b|[{,]\\s*(?:${NAMES})\\s*[,}:]|['"\`}]/(?:call|batches)\\b`);

function sources(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return /\.(ts|tsx|mjs|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** A file's lines that place, stop or remove by themselves, as `path:line: text` (none inside the engine or the client). */
export function sideDoorsIn(rel: string, text: string): string[] {
  if (ALLOWED.some((dir) => rel.startsWith(dir))) return [];
  return text.split('\n').flatMap((line, i) => (PLACING.test(line) && !/^\s*(\*|\/\/)/.test(line) ? [`${rel}:${i + 1}: ${line.trim()}`] : []));
}

describe('one door for calls', () => {
  it('nothing outside lib/placement/ (and the client in lib/api/) creates, schedules, stops or deletes a batch or posts /call', () => {
    const files = DIRS.flatMap((d) => sources(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => sideDoorsIn(relative(ROOT, file), readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('finds a side door: the Batches handler as it was, calling the client itself', () => {
    const before = [
      "const created = await (await currentClient()).createBatch({ agent_id: agentId, csv, file_name: fileName });",
      'await (await currentClient()).scheduleBatch(batchId, checked);',
      'const { stopBatch } = client;',
      "await fetch(`${base}/call`, { method: 'POST' });",
      '// a comment naming stopBatch is not a call',
    ].join('\n');
    expect(sideDoorsIn(join('lib', 'background', 'handlers', 'batches.ts'), before)).toHaveLength(4);
    expect(sideDoorsIn(join('lib', 'placement', 'batch-steps.ts'), before)).toEqual([]);
  });
});

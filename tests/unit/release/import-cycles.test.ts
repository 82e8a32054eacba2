/**
 * The house rule "no import cycles, type-only ones included", checked over the shipped code and the
 * sandbox: every relative import (static, `import type`, `export … from`, dynamic `import()`) is an edge.
 * The same graph holds the layer rules: the client and the dial logic know no screen, and the page side
 * never reaches the service's client (docs/layout.md, "Layers").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const DIRS = ['lib', 'components', 'entrypoints', 'sandbox', 'scripts', 'proxy', 'widget'];
const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    try {
      if (statSync(candidate).isFile() && /\.(ts|tsx)$/.test(candidate)) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const edges = [...text.matchAll(IMPORT_RE)].map((m) => resolveImport(file, (m[1] ?? m[2] ?? m[3])!)).filter((p): p is string => p !== null);
    graph.set(file, [...new Set(edges)]);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as the list of files around it. */
export function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

/** Every file `from` reaches through its imports (itself excluded), with the path to each. */
export function reachable(graph: Map<string, string[]>, from: string): Map<string, string[]> {
  const paths = new Map<string, string[]>();
  const queue: string[][] = [[from]];
  while (queue.length) {
    const path = queue.shift()!;
    for (const next of graph.get(path[path.length - 1]!) ?? []) {
      if (next === from || paths.has(next)) continue;
      paths.set(next, [...path, next]);
      queue.push([...path, next]);
    }
  }
  return paths;
}

interface LayerRule {
  /** Files the rule is about, as paths relative to the root. */
  from: RegExp;
  /** Files they must never reach, directly or through another module. */
  never: RegExp;
  why: string;
}

const LAYER_RULES: LayerRule[] = [
  { from: /^lib\/(api|calls|placement)\//, never: /^(lib\/ui|components|entrypoints)\//, why: 'the client and the dial logic know no screen' },
  { from: /^(lib\/page\/|entrypoints\/content\/|entrypoints\/finder\.ts)/, never: /^lib\/api\//, why: 'the page side never reaches the service\'s client' },
  { from: /^proxy\//, never: /^(lib\/ui|lib\/background|components|entrypoints|sandbox)\//, why: 'the proxy is a server: no screen, no extension background, no sandbox' },
  { from: /^(lib|components|entrypoints)\//, never: /^proxy\//, why: 'the extension and the widget reach the proxy over HTTP only' },
];

/** Each broken rule as "a → b → c (why)". */
export function layerViolations(graph: Map<string, string[]>, rules: LayerRule[], rel: (f: string) => string = (f) => f): string[] {
  const found: string[] = [];
  for (const file of graph.keys()) {
    for (const rule of rules) {
      if (!rule.from.test(rel(file))) continue;
      for (const [target, path] of reachable(graph, file)) {
        if (rule.never.test(rel(target))) found.push(`${path.map(rel).join(' → ')} (${rule.why})`);
      }
    }
  }
  return found;
}

describe('layers', () => {
  it('finds a file that reaches a forbidden layer through another (the check itself works)', () => {
    const graph = new Map([
      ['lib/api/schedule.ts', ['lib/i18n.ts']],
      ['lib/i18n.ts', ['lib/ui/locale.ts']],
      ['lib/ui/locale.ts', []],
    ]);
    expect(layerViolations(graph, LAYER_RULES)).toEqual([
      'lib/api/schedule.ts → lib/i18n.ts → lib/ui/locale.ts (the client and the dial logic know no screen)',
    ]);
  });

  it('api and calls never import ui; the page side never imports api', () => {
    const files = DIRS.flatMap((d) => sources(join(ROOT, d)));
    const rel = (f: string) => relative(ROOT, f).split(sep).join('/');
    expect(layerViolations(importGraph(files), LAYER_RULES, rel)).toEqual([]);
  });
});

describe('import cycles', () => {
  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('the extension, the sandbox and the scripts have none, type-only imports included', () => {
    const files = DIRS.flatMap((d) => sources(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const graph = importGraph(files);
    const found = cycles(graph).map((cycle) => cycle.map((f) => relative(ROOT, f)).join(' → '));
    expect(found).toEqual([]);
  });
});

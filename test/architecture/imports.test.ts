import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The layers of src/ point one way: the faces (REST, GraphQL, HTTP, MCP) sit on the core (errors,
// auth, the context, services, jobs, the rate limiter…), and the core never climbs back into them.
// The graph counts every import the compiler sees: `import type`, re-exports and `import('…')`,
// because a type import still ties one module to another.

const src = fileURLToPath(new URL('../../src', import.meta.url));

const FACES = ['rest/', 'graphql/', 'http/', 'mcp/'];
/** Where the faces are put together: the only modules outside them that may import them. */
const ASSEMBLY = ['app.ts', 'main.ts', 'scripts/'];

/** Files of src/ as paths relative to it, without tests and without the generated Prisma client. */
function sourceFiles(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative(src, path)] : [];
  });
}

/** Imports of one file that point into src/ (the generated client aside), relative to src/. */
function importsOf(file: string, known: Set<string>): string[] {
  const info = ts.preProcessFile(readFileSync(join(src, file), 'utf8'), true, true);
  const targets = info.importedFiles
    .map((ref) => ref.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(src, resolve(dirname(join(src, file)), spec)).replace(/\.js$/, '.ts'))
    .filter((base) => !base.startsWith('generated/'))
    .map((base) => {
      const target = [base, `${base}.ts`, join(base, 'index.ts')].find((candidate) => known.has(candidate));
      if (!target) throw new Error(`${file}: cannot resolve ${base}`);
      return target;
    });
  return [...new Set(targets)];
}

function importGraph(): Map<string, string[]> {
  const files = sourceFiles();
  const known = new Set(files);
  return new Map(files.map((file) => [file, importsOf(file, known)]));
}

/** A shortest path of imports from start back to start, if there is one. */
function cycleThrough(graph: Map<string, string[]>, start: string): string[] | undefined {
  const previous = new Map<string, string>();
  const queue = [start];
  for (const node of queue) {
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** The modules a breadth-first walk reaches from start, start included. */
function reachable(graph: Map<string, string[]>, start: string): Set<string> {
  const seen = new Set([start]);
  for (const node of seen) for (const next of graph.get(node) ?? []) seen.add(next);
  return seen;
}

/**
 * The circles of the graph, each named once by its shortest cycle through its first module, with
 * the number of modules tied into it when the cycle does not show them all.
 */
function cycles(graph: Map<string, string[]>): string[] {
  const importers = new Map<string, string[]>();
  for (const [file, targets] of graph) for (const target of targets) importers.set(target, [...(importers.get(target) ?? []), file]);
  const named = new Set<string>();
  return [...graph.keys()].sort().flatMap((module) => {
    const cycle = named.has(module) ? undefined : cycleThrough(graph, module);
    if (!cycle) return [];
    const upstream = reachable(importers, module);
    const circle = [...reachable(graph, module)].filter((member) => upstream.has(member));
    for (const member of circle) named.add(member);
    return [cycle.join(' -> ') + (circle.length > cycle.length - 1 ? ` (one of the cycles tying ${circle.length} modules)` : '')];
  });
}

/** Whether a path (relative to src/) is one of the modules: a file, or a folder ending in '/'. */
const within = (modules: string[], file: string) => modules.some((module) => (module.endsWith('/') ? file.startsWith(module) : file === module));

/** Imports of a face by a module of the core. */
function forbiddenEdges(graph: Map<string, string[]>): string[] {
  return [...graph]
    .filter(([file]) => !within(FACES, file) && !within(ASSEMBLY, file))
    .flatMap(([file, targets]) => targets.filter((target) => within(FACES, target)).map((target) => `${file} -> ${target}`));
}

describe('imports of src/', () => {
  const graph = importGraph();

  it('are all seen, and a circle or a core module importing a face would be found', () => {
    // What the checks below stand on: imports, type-only ones among them, are edges of the graph…
    expect(graph.get('rest/router.ts')).toEqual(expect.arrayContaining(['context.ts', 'create-context.ts', 'errors.ts']));
    expect(graph.get('context.ts')).toContain('auth/viewer.ts');
    // …and the checks report what they are for.
    const bad = new Map([
      ['errors.ts', ['auth/viewer.ts']],
      ['auth/viewer.ts', ['context.ts']],
      ['context.ts', ['errors.ts', 'graphql/yoga.ts']],
      ['graphql/yoga.ts', ['context.ts', 'http/pages.ts']],
      ['http/pages.ts', []],
      ['app.ts', ['http/pages.ts']],
      ['jobs/run.ts', ['jobs/run.ts']],
    ]);
    expect(cycles(bad)).toEqual([
      'auth/viewer.ts -> context.ts -> errors.ts -> auth/viewer.ts (one of the cycles tying 4 modules)',
      'jobs/run.ts -> jobs/run.ts',
    ]);
    expect(forbiddenEdges(bad)).toEqual(['context.ts -> graphql/yoga.ts']);
  });

  it('form no cycle, type imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('lead into a face (rest, graphql, http, mcp) only from another face or where the app is put together', () => {
    expect(forbiddenEdges(graph)).toEqual([]);
  });
});

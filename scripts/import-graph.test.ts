import { describe, expect, test } from 'vitest';
import { ROOT } from '@/server/config';
import {
  buildImportGraph,
  fileCycles,
  findCycles,
  folderCycles,
  folderEdges,
  groundFloorLeaks,
  layerCrossings,
  readSpecifiers,
  type ImportEdge,
} from './import-graph';

const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, to, typeOnly });

describe('the product import graph (app/, server/, worker/, emulators/, scripts/; tests left out)', () => {
  const edges = buildImportGraph(ROOT);

  test('has no file import cycle', () => {
    expect(fileCycles(edges)).toEqual([]);
  });

  test('has no folder import cycle (folder: the first two path segments, such as server/documents)', () => {
    expect(folderCycles(edges)).toEqual([]);
  });

  test('crosses none of the layers DESIGN.md "Layout" names', () => {
    expect(layerCrossings(edges)).toEqual([]);
  });

  test('keeps the ground floor (server/facts) pure: it imports no package, no Node built-in, no other folder', () => {
    expect(groundFloorLeaks(ROOT)).toEqual([]);
    expect(edges).toContainEqual(edge('server/facts/error-codes.ts', 'server/facts/vat-rates.ts'));
  });

  test('sees the imports it checks (a graph read wrong would pass every check above)', () => {
    expect(edges).toContainEqual(edge('server/documents/transition.ts', 'server/documents/record-document-event.ts'));
    expect(edges).toContainEqual(edge('app/metrics/route.ts', 'server/observability/scrape.ts'));
    expect(edges.length).toBeGreaterThan(1000);
  });
});

describe('the checks themselves', () => {
  test('a file cycle is named as a path; type-only imports are erased and tie nothing', () => {
    const cycle = [edge('a/x/1.ts', 'a/x/2.ts'), edge('a/x/2.ts', 'a/x/3.ts'), edge('a/x/3.ts', 'a/x/1.ts')];
    expect(fileCycles(cycle)).toEqual(['a/x/1.ts → a/x/2.ts → a/x/3.ts → a/x/1.ts']);
    expect(fileCycles([edge('a/x/1.ts', 'a/x/2.ts'), edge('a/x/2.ts', 'a/x/1.ts', true)])).toEqual([]);
  });

  test('a folder cycle counts only imports of files that import product code themselves', () => {
    const behaviour = [edge('s/a/use.ts', 's/b/job.ts'), edge('s/b/job.ts', 's/a/model.ts'), edge('s/a/model.ts', 's/c/db.ts')];
    expect(folderCycles(behaviour)).toEqual(['s/a → s/b → s/a\n    s/a → s/b: s/a/use.ts → s/b/job.ts\n    s/b → s/a: s/b/job.ts → s/a/model.ts']);
    const vocabulary = [edge('s/a/use.ts', 's/b/job.ts'), edge('s/b/job.ts', 's/a/kinds.ts')];
    expect(folderEdges(vocabulary)).toEqual([{ from: 's/a', to: 's/b', via: 's/a/use.ts → s/b/job.ts' }]);
    expect(folderCycles(vocabulary)).toEqual([]);
    expect(findCycles([edge('p', 'q'), edge('q', 'r'), edge('r', 'q'), edge('r', 'p'), edge('s', 'p')])).toEqual([['p', 'q', 'r']]);
  });

  test('a layer crossing names its rule and the import', () => {
    expect(layerCrossings([edge('server/x/a.ts', 'worker/main.ts', true), edge('server/ksef/b.ts', 'server/db/client.ts', true)])).toEqual([
      'no product import of worker/ from outside it: server/x/a.ts → worker/main.ts',
    ]);
    expect(layerCrossings([edge('server/facts/a.ts', 'server/facts/b.ts'), edge('server/facts/a.ts', 'server/orders/vat.ts', true)])).toEqual([
      'server/facts (the ground floor of pure shared facts) imports nothing of the product outside itself: server/facts/a.ts → server/orders/vat.ts',
    ]);
  });

  test('imports, re-exports, import() and import types are read; type-only ones are marked', () => {
    const source = `
      import a from './a';
      import type { B } from './b';
      import { type C } from './c';
      import { type D, d } from './d';
      export { e } from './e';
      export type { F } from './f';
      const g = await import('./g');
      let h: import('./h').H;`;
    expect(readSpecifiers('x.ts', source)).toEqual([
      { text: './a', typeOnly: false },
      { text: './b', typeOnly: true },
      { text: './c', typeOnly: true },
      { text: './d', typeOnly: false },
      { text: './e', typeOnly: false },
      { text: './f', typeOnly: true },
      { text: './g', typeOnly: false },
      { text: './h', typeOnly: true },
    ]);
  });
});

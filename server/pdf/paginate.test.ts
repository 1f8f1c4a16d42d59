import { describe, expect, test } from 'vitest';
import { paginate, type FlowBlock, type PaginationInput, type Placement } from './paginate';

const base = { pageHeight: 700, continuationHeight: 20, tableHeaderHeight: 30 };
const intro: FlowBlock[] = [{ height: 200 }, { height: 80, keepWithNext: true }];
const closing: FlowBlock[] = [{ height: 150 }, { height: 100 }];
const rows = (heights: number[]): FlowBlock[] => heights.map((height) => ({ height, row: true }));

function heightOf(input: PaginationInput, p: Placement): number {
  if (p.kind === 'block') return input.blocks[p.index]!.height;
  return p.kind === 'tableHeader' ? input.tableHeaderHeight : input.continuationHeight;
}

/** Every page: placements stacked without gaps or overlaps, none past the page. */
function expectStacked(input: PaginationInput, pages: Placement[][]) {
  for (const page of pages) {
    let y = 0;
    for (const p of page) {
      expect(p.y).toBe(y);
      y += heightOf(input, p);
    }
    expect(y).toBeLessThanOrEqual(input.pageHeight);
  }
}

describe('paginate', () => {
  test('a short invoice is one page, the table header above the first row', () => {
    const input = { ...base, blocks: [...intro, ...rows([16, 16, 25]), ...closing] };
    const pages = paginate(input);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.map((p) => (p.kind === 'block' ? p.index : p.kind))).toEqual([0, 1, 'tableHeader', 2, 3, 4, 5, 6]);
    expectStacked(input, pages);
  });

  test('rows continue on later pages with the header repeated, every block exactly once, in order', () => {
    const heights = Array.from({ length: 300 }, (_, i) => 12 + (i % 7) * 5);
    const input = { ...base, blocks: [...intro, ...rows(heights), ...closing] };
    const pages = paginate(input);
    expect(pages.length).toBeGreaterThan(5);
    const order = pages.flat().flatMap((p) => (p.kind === 'block' ? [p.index] : []));
    expect(order).toEqual(input.blocks.map((_, i) => i));
    pages.forEach((page, i) => {
      if (i > 0) expect(page[0]?.kind).toBe('continuation');
      const firstBlock = page.find((p) => p.kind === 'block');
      if (firstBlock?.kind === 'block' && input.blocks[firstBlock.index]?.row) {
        expect(page[page.indexOf(firstBlock) - 1]?.kind).toBe('tableHeader');
      }
    });
    expectStacked(input, pages);
  });

  test('a title marked keepWithNext moves to the next page with the first row', () => {
    const input = { ...base, blocks: [{ height: 600 }, { height: 40, keepWithNext: true }, ...rows([40, 16])] };
    const pages = paginate(input);
    expect(pages[0]!.map((p) => p.kind)).toEqual(['block']);
    expect(pages[1]!.map((p) => (p.kind === 'block' ? p.index : p.kind))).toEqual(['continuation', 1, 'tableHeader', 2, 3]);
  });

  test('closing blocks flow to a new page one by one, without a table header', () => {
    const input = { ...base, blocks: [{ height: 500 }, ...closing] };
    const pages = paginate(input);
    expect(pages.map((p) => p.map((x) => (x.kind === 'block' ? x.index : x.kind)))).toEqual([
      [0, 1],
      ['continuation', 2],
    ]);
  });

  test('a block taller than a page gets a page of its own instead of looping', () => {
    const input = { ...base, blocks: [{ height: 100 }, ...rows([900, 10])] };
    const pages = paginate(input);
    expect(pages.flat().filter((p) => p.kind === 'block')).toHaveLength(3);
    expect(pages).toHaveLength(3);
  });
});

import { describe, expect, test } from 'vitest';
import { paginateRows, type PaginationInput } from './paginate';

const base: Omit<PaginationInput, 'rowHeights'> = {
  pageHeight: 700,
  introHeight: 300,
  continuationHeight: 20,
  tableHeaderHeight: 30,
  closingHeight: 250,
};

/** Height each planned page uses, to check no page overflows. */
function usedHeights(input: PaginationInput) {
  return paginateRows(input).map((p) => {
    const rows = input.rowHeights.slice(p.rowStart, p.rowEnd).reduce((a, b) => a + b, 0);
    return (
      (p.intro ? input.introHeight : input.continuationHeight) +
      (p.rowEnd > p.rowStart ? input.tableHeaderHeight + rows : 0) +
      (p.closing ? input.closingHeight : 0)
    );
  });
}

describe('paginateRows', () => {
  test('a short invoice is one page with everything', () => {
    expect(paginateRows({ ...base, rowHeights: [16, 16, 25] })).toEqual([{ rowStart: 0, rowEnd: 3, intro: true, closing: true }]);
  });

  test('rows continue on later pages, every row exactly once, in order, no page overflowing', () => {
    const input = { ...base, rowHeights: Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? 25 : 16)) };
    const pages = paginateRows(input);
    expect(pages.length).toBeGreaterThan(5);
    expect(pages[0]?.rowStart).toBe(0);
    pages.slice(1).forEach((p, i) => expect(p.rowStart).toBe(pages[i]?.rowEnd));
    expect(pages.at(-1)?.rowEnd).toBe(300);
    expect(pages.filter((p) => p.intro)).toHaveLength(1);
    expect(pages.filter((p) => p.closing)).toEqual([pages.at(-1)]);
    for (const used of usedHeights(input)) expect(used).toBeLessThanOrEqual(base.pageHeight);
  });

  test('pages are filled: the next row would not have fitted', () => {
    const input = { ...base, rowHeights: Array.from({ length: 100 }, () => 20) };
    const pages = paginateRows(input);
    const used = usedHeights(input);
    pages.slice(0, -1).forEach((p, i) => {
      const next = input.rowHeights[p.rowEnd] ?? 0;
      expect((used[i] ?? 0) + next).toBeGreaterThan(base.pageHeight);
    });
  });

  test('the closing blocks move to a page of their own when the last rows leave no room', () => {
    // intro 300 + header 30 + 18 rows of 20 = 690: rows fit, the 250 of closing does not
    const pages = paginateRows({ ...base, rowHeights: Array.from({ length: 18 }, () => 20) });
    expect(pages).toEqual([
      { rowStart: 0, rowEnd: 18, intro: true, closing: false },
      { rowStart: 18, rowEnd: 18, intro: false, closing: true },
    ]);
  });

  test('a row taller than a page still gets a page instead of looping', () => {
    const pages = paginateRows({ ...base, rowHeights: [16, 2_000, 16] });
    expect(pages.map((p) => [p.rowStart, p.rowEnd])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
  });
});

/**
 * Stacks the document's blocks on pages. Pure: heights in, placements out. A block never splits; rows of the
 * table get its header above them at the top of every page they continue on, later pages open with a
 * continuation line, and a block marked keepWithNext (a section title) moves with the block after it.
 */

export type FlowBlock = { height: number; row?: boolean; keepWithNext?: boolean };

export type PaginationInput = {
  blocks: readonly FlowBlock[];
  /** Usable height of a page between the top margin and the footer. */
  pageHeight: number;
  /** The line that opens every later page. */
  continuationHeight: number;
  /** The table's column header, repeated on every page that has rows. */
  tableHeaderHeight: number;
};

/** What goes where on one page: a block by index, the table header, or the continuation line; y from the content top. */
export type Placement = { kind: 'block'; index: number; y: number } | { kind: 'tableHeader' | 'continuation'; y: number };

export function paginate({ blocks, pageHeight, continuationHeight, tableHeaderHeight }: PaginationInput): Placement[][] {
  const pages: Placement[][] = [[]];
  let page = pages[0]!;
  let y = 0;
  let tableOpen = false; // the header is on this page above the current rows
  let fresh = true; // no block on this page yet

  const newPage = () => {
    page = [{ kind: 'continuation', y: 0 }];
    pages.push(page);
    y = continuationHeight;
    tableOpen = false;
    fresh = true;
  };
  /** Height block i needs here, with the header it opens and the blocks it must stay with. */
  const needed = (i: number): number => {
    let h = 0;
    let open = tableOpen;
    for (let j = i; j < blocks.length; j++) {
      const b = blocks[j]!;
      if (b.row && !open) h += tableHeaderHeight;
      open = !!b.row;
      h += b.height;
      if (!b.keepWithNext) break;
    }
    return h;
  };

  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    // a block taller than an empty page goes on one anyway (clipped) rather than looping forever
    if (y + needed(i) > pageHeight && !fresh) newPage();
    if (b.row && !tableOpen) {
      page.push({ kind: 'tableHeader', y });
      y += tableHeaderHeight;
    }
    tableOpen = !!b.row;
    page.push({ kind: 'block', index: i, y });
    y += b.height;
    fresh = false;
  }
  return pages;
}

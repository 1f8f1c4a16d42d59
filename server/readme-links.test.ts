import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from './config';

/** The only place outside the repository a README may point at: the shared spec, design and KSeF references. */
const SHARED = path.resolve(ROOT, '../shared');
const inside = (target: string) => [ROOT, SHARED].some((dir) => target === dir || target.startsWith(`${dir}${path.sep}`));

/**
 * Markdown link targets and every `../…` path written out in the text (in backticks too) of a file under ROOT that
 * do not resolve, resolve outside the repository and ../shared, or are links to elsewhere (`https:` and the like).
 */
function brokenReferences(file: string, text: string): string[] {
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  const parents = [...text.matchAll(/(?<![\w./])(\.\.\/[\w./-]*[\w/])/g)].map((m) => m[1]!);
  return [...new Set([...links, ...parents])].filter((target) => {
    if (target.startsWith('#')) return false;
    if (/^[a-z]+:/i.test(target)) return true;
    const resolved = path.resolve(ROOT, path.dirname(file), target.replace(/#.*$/, ''));
    return !inside(resolved) || !existsSync(resolved);
  });
}

test.each(['README.md', 'bench/README.md', 'docs/operations.md', 'docs/tax-rules.md', 'docs/stores.md', 'docs/outage-modes.md'])(
  'every link and ../ path in %s resolves, inside the repository or ../shared',
  (file) => {
    expect(brokenReferences(file, readFileSync(path.join(ROOT, file), 'utf8'))).toEqual([]);
  },
);

test('a missing file, a path out of the repository and a web link are each caught; a good one passes', () => {
  const text =
    'See [rules](../notes/tax-rules.md), `../notes/woocommerce-rules.md`, [x](https://example.com), [spec](../shared/spec/api-spec.md), [bench](bench/README.md#capacity-model) and [gone](docs/none.md).';
  expect(brokenReferences('README.md', text)).toEqual(['../notes/tax-rules.md', 'https://example.com', 'docs/none.md', '../notes/woocommerce-rules.md']);
  expect(brokenReferences('bench/README.md', '[up](../README.md), [out](../../etc/passwd)')).toEqual(['../../etc/passwd']);
});

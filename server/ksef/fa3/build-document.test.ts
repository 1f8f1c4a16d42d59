import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { listProductFiles } from '@/scripts/import-graph';
import { ROOT } from '@/server/config';

test('product code builds a document FA(3) only through buildFa3Document (the builders of each kind are its own)', () => {
  const callers = listProductFiles(ROOT).filter((file) => /\bbuild(Invoice|Correction)Xml\(/.test(readFileSync(path.join(ROOT, file), 'utf8')));
  expect(callers).toEqual(['server/ksef/fa3/build-correction.ts', 'server/ksef/fa3/build-document.ts', 'server/ksef/fa3/build-invoice.ts']);
});

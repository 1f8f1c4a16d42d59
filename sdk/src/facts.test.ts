import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { renderSdkFacts, SDK_FACTS_FILE } from '@/scripts/sdk-facts';

test('facts.ts is what server/facts/ generates (after changing a fact: npm run facts:sdk)', async () => {
  expect(readFileSync(SDK_FACTS_FILE, 'utf8')).toBe(await renderSdkFacts());
});

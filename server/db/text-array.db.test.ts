import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { textArray } from './text-array';

const t = useTestDatabase();

test('a text array holds each value as given, commas, braces, quotes and backslashes included, and may be empty', async () => {
  const values = ['worker-1', 'a,b', '{c}', 'd"e', 'f\\g', ' h ', 'NULL'];
  const [row] = await t.db().execute<{ got: string[]; none: number }>(sql`select ${textArray(values)} as got, cardinality(${textArray([])}) as none`);
  expect(row!.got).toEqual(values);
  expect(row!.none).toBe(0);
});

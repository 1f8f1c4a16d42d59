import { z } from 'zod';
import type { Page } from '@/server/db/keyset-page';

/** The paging parameters every /v1 list takes (spec 4.12); a list with filters extends it. */
export const ZListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  starting_after: z.string().min(1).optional(),
});

/** The list envelope of spec 2.9, `{ object: 'list', url, has_more, data }`, with each item serialized. */
export function listEnvelope<T, U>(url: string, page: Page<T>, serialize: (item: T) => U) {
  return { object: 'list' as const, url, has_more: page.hasMore, data: page.data.map(serialize) };
}

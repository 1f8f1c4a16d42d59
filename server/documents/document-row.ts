import type { documents } from '@/server/db/schema';

export type DocumentRow = typeof documents.$inferSelect;

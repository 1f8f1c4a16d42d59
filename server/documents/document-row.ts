import type { documents } from '../db/schema';

export type DocumentRow = typeof documents.$inferSelect;

import { and, eq } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Mode } from './schema';

/** Who is asking (invariant 5): every service takes it first and every query is filtered by it. */
export type Scope = { accountId: string; mode: Mode };

export const inScope = (t: { accountId: PgColumn; mode: PgColumn }, s: Scope) => and(eq(t.accountId, s.accountId), eq(t.mode, s.mode));

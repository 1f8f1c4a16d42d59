import { sql, type SQL } from 'drizzle-orm';

/**
 * A `text[]` of bound values. drizzle turns a JS array in a template into a parenthesised list, and an array
 * literal spelled by hand breaks on a comma, brace or quote inside a value.
 */
export const textArray = (values: readonly string[]): SQL =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

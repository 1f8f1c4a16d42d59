import type postgres from 'postgres';

/**
 * Statements with more parameters than this stay unnamed: drizzle writes `in (…)` lists one parameter per item,
 * so each list length is a text of its own, and such statements are rare.
 */
const MAX_PREPARED_PARAMS = 32;

type Unsafe = (query: string, params?: unknown[], options?: { prepare?: boolean }) => unknown;
type WithClient = (client: postgres.Sql) => unknown;

/**
 * postgres.js as drizzle should drive it. drizzle sends every statement unnamed (`prepare: false` unless the query
 * was given a name), so PostgreSQL parses and plans it again on every execution: most of the server's CPU for the
 * short indexed statements a job runs. Through this client postgres.js keeps one named statement per query text
 * and parameter types on each connection, which the server plans once (a connection lives 30–60 minutes, which
 * bounds that cache). Transactions and savepoints hand out clients that do the same.
 */
export function preparingClient(sql: postgres.Sql): postgres.Sql {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop === 'unsafe') {
        const unsafe = Reflect.get(target, prop, receiver) as Unsafe;
        return (query: string, params: unknown[] = [], options: { prepare?: boolean } = {}) =>
          unsafe(query, params, { ...options, prepare: options.prepare === true || params.length <= MAX_PREPARED_PARAMS });
      }
      if (prop === 'begin' || prop === 'savepoint') {
        const open = Reflect.get(target, prop, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          const inner = args.pop() as WithClient;
          return open(...args, (client: postgres.Sql) => inner(preparingClient(client)));
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
}

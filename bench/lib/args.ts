/** `name=value` arguments of a bench script over numeric defaults; an unknown name or a non-number is an error. */
export function readArgs<T extends Record<string, number>>(defaults: T, argv = process.argv.slice(2)): T {
  const out: Record<string, number> = { ...defaults };
  for (const arg of argv) {
    const [name, value] = arg.split('=');
    if (!name || !(name in defaults) || value === undefined || !Number.isFinite(Number(value))) {
      throw new Error(
        `unknown argument ${arg}; expected ${Object.keys(defaults)
          .map((k) => `${k}=<number>`)
          .join(' ')}`,
      );
    }
    out[name] = Number(value);
  }
  return out as T;
}

/** `['lines', 3, 'unit_price']` under `order` → `order.lines[3].unit_price`: the spec's `param` (2.3). */
export function jsonPath(root: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), root);
}

/** The value at a zod issue's path, to tell an absent value (…_missing) from a wrong one (…_invalid). */
export function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let node = input;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

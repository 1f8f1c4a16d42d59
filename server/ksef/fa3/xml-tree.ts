import { XMLParser } from 'fast-xml-parser';

/** Test support: FA(3) XML as a plain element tree, for comparing documents regardless of formatting. */
export type Tree = { name: string; attrs: Record<string, string>; text: string | null; children: Tree[] };

type Ordered = Record<string, unknown> & { ':@'?: Record<string, string> };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
});

function convert(node: Ordered, drop: ReadonlySet<string>): Tree | null {
  const name = Object.keys(node).find((k) => k !== ':@');
  if (!name || drop.has(name)) return null;
  const content = node[name] as Ordered[];
  const textNode = content.find((c) => '#text' in c);
  const children = content
    .filter((c) => !('#text' in c))
    .map((c) => convert(c, drop))
    .filter((t): t is Tree => t !== null);
  return { name, attrs: { ...(node[':@'] ?? {}) }, text: textNode ? String(textNode['#text']) : null, children };
}

/** The document's root element; elements named in `drop` (e.g. DataWytworzeniaFa) are left out wherever they are. */
export function xmlTree(xml: string, drop: readonly string[] = []): Tree {
  const [root] = (parser.parse(xml) as Ordered[]).map((n) => convert(n, new Set(drop))).filter((t): t is Tree => t !== null);
  if (!root) throw new Error('no root element');
  return root;
}

/** The text of the first element at a slash path below the root, e.g. `Fa/P_15`. */
export function textAt(tree: Tree, path: string): string | null {
  let node: Tree | undefined = tree;
  for (const part of path.split('/')) node = node?.children.find((c) => c.name === part);
  return node?.text ?? null;
}

export function allAt(tree: Tree, path: string): Tree[] {
  const parts = path.split('/');
  const last = parts.pop();
  let node: Tree | undefined = tree;
  for (const part of parts) node = node?.children.find((c) => c.name === part);
  return node?.children.filter((c) => c.name === last) ?? [];
}

/**
 * A minimal element tree and its serialiser: FA(3) is order-sensitive, so the builder lists elements exactly
 * in schema order and absent optional elements are simply `undefined` children.
 */
export type XmlElement = { name: string; attrs?: Record<string, string>; children: XmlElement[] | string };
type Child = XmlElement | undefined | null | false | '';

/** An element with text, or with child elements (undefined/false children are skipped). */
export function el(name: string, content: string | number | readonly Child[], attrs?: Record<string, string>): XmlElement {
  const children = typeof content === 'string' || typeof content === 'number' ? String(content) : content.filter((c): c is XmlElement => Boolean(c));
  return attrs ? { name, attrs, children } : { name, children };
}

/** An optional element: omitted when its text is null, undefined or blank. */
export function opt(name: string, content: string | number | null | undefined): XmlElement | undefined {
  return content === null || content === undefined || String(content).trim() === '' ? undefined : el(name, content);
}

/** The intake's sanitizer (server/orders/text.ts): the builder and the intake clean text the same way. */
export { cleanText } from '@/server/orders/text';

// most texts have nothing to escape: one test instead of three replacements over every text of the document
const escapeText = (s: string) => (/[&<>]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s);
const escapeAttr = (s: string) => (/[&<>"]/.test(s) ? escapeText(s).replace(/"/g, '&quot;') : s);

function write(node: XmlElement, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  const attrs = Object.entries(node.attrs ?? {})
    .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`)
    .join('');
  if (typeof node.children === 'string') {
    out.push(`${pad}<${node.name}${attrs}>${escapeText(node.children)}</${node.name}>`);
    return;
  }
  out.push(`${pad}<${node.name}${attrs}>`);
  for (const child of node.children) write(child, depth + 1, out);
  out.push(`${pad}</${node.name}>`);
}

/** One element without the declaration, indented `depth` levels: for documents written piece by piece (exports). */
export function serializeFragment(node: XmlElement, depth = 0): string {
  const out: string[] = [];
  write(node, depth, out);
  return `${out.join('\n')}\n`;
}

/** UTF-8 text without BOM and without processing instructions other than the declaration (fa3-mapping.md §1). */
export function serializeXml(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  write(root, 0, out);
  return `${out.join('\n')}\n`;
}

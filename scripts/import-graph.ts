import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Product code: what ships or runs the product. Tests, test support, e2e, bench and the SDK stay out. */
export const PRODUCT_ROOTS = ['app', 'server', 'worker', 'emulators', 'scripts'];
/** Product files at the repository root (Next.js' proxy and instrumentation hooks). */
const ROOT_FILES = ['proxy.ts', 'instrumentation.ts'];
const EXTENSIONS = ['.ts', '.tsx'];

export type ImportEdge = { from: string; to: string; typeOnly: boolean };

export function isProductFile(file: string): boolean {
  return EXTENSIONS.some((ext) => file.endsWith(ext)) && !/\.test\.tsx?$/.test(file) && !file.endsWith('.d.ts');
}

/** Every product file, as a path relative to `root` with forward slashes. */
export function listProductFiles(root: string): string[] {
  const files: string[] = ROOT_FILES.filter((file) => existsSync(path.join(root, file)));
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir)).sort()) {
      const rel = `${dir}/${entry}`;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (isProductFile(rel)) files.push(rel);
    }
  };
  for (const dir of PRODUCT_ROOTS) walk(dir);
  return files;
}

type Specifier = { text: string; typeOnly: boolean };

/** The module specifiers of one file: static imports and re-exports, `import()` and `require()`. */
export function readSpecifiers(fileName: string, source: string): Specifier[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Specifier[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const allNamedTypes = !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && allNamedTypes));
      found.push({ text: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause;
      const allNamedTypes = !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
      found.push({ text: node.moduleSpecifier.text, typeOnly: node.isTypeOnly || allNamedTypes });
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isImport || isRequire) found.push({ text: (node.arguments[0] as ts.StringLiteralLike).text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ text: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The repository file a specifier names (the `@/` alias or a relative path), or null for packages and Node built-ins. */
export function resolveSpecifier(root: string, fromFile: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = specifier.slice(2);
  else if (specifier.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  else return null;
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext), ...EXTENSIONS.map((ext) => `${base}/index${ext}`)];
  for (const candidate of candidates) {
    const full = path.join(root, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return null;
}

/** The import edges between product files (imports of tests, packages and non-code files are left out). */
export function buildImportGraph(root: string, files = listProductFiles(root)): ImportEdge[] {
  const product = new Set(files);
  const edges: ImportEdge[] = [];
  for (const from of files) {
    for (const spec of readSpecifiers(from, readFileSync(path.join(root, from), 'utf8'))) {
      const to = resolveSpecifier(root, from, spec.text);
      if (to && product.has(to) && to !== from) edges.push({ from, to, typeOnly: spec.typeOnly });
    }
  }
  return edges;
}

/** The folder a file belongs to for folder cycles: its first two path segments (`server/documents`, `app/components`). */
export function folderOf(file: string): string {
  return file.split('/').slice(0, 2).join('/');
}

/**
 * The strongly connected components of more than one node (Tarjan's algorithm), each as its sorted members:
 * every cycle of the graph lies inside one of them.
 */
export function findCycles(edges: { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (from === to) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) connect(node);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One shortest cycle through the first member of a component, for a readable failure message (`a → b → a`). */
export function describeCycle(component: string[], edges: { from: string; to: string }[]): string {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const { from, to } of edges) {
      if (from !== node || !members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start].join(' → ');
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return component.join(', ');
}

/** The edges that load code when the program runs: `import type` and `export type` are erased by the compiler. */
export const runtimeEdges = (edges: ImportEdge[]): ImportEdge[] => edges.filter((e) => !e.typeOnly);

/** Cycles between files, over runtime imports, each as one readable path. */
export function fileCycles(edges: ImportEdge[]): string[] {
  const runtime = runtimeEdges(edges);
  return findCycles(runtime).map((component) => describeCycle(component, runtime));
}

/**
 * The edges between folders, over runtime imports. An import of a leaf module (one that loads no product file when
 * it runs: a list of statuses, the VAT rates, the SMTP transport) does not tie its folder to the importer's: the
 * leaf could move to either folder without any other dependency changing, so it is left out; the rest is behaviour
 * depending on behaviour, and a cycle of it means neither folder can change or be read without the other.
 */
export function folderEdges(edges: ImportEdge[], { leaves = false } = {}): { from: string; to: string; via: string }[] {
  const runtime = runtimeEdges(edges);
  const importsProduct = new Set(runtime.map((e) => e.from));
  return runtime
    .filter((e) => (leaves || importsProduct.has(e.to)) && folderOf(e.from) !== folderOf(e.to))
    .map((e) => ({ from: folderOf(e.from), to: folderOf(e.to), via: `${e.from} → ${e.to}` }));
}

/** Cycles between folders, each as one folder path and, for each of its steps, the file imports that make it. */
export function folderCycles(edges: ImportEdge[], options: { leaves?: boolean } = {}): string[] {
  const between = folderEdges(edges, options);
  return findCycles(between).map((component) => {
    const path = describeCycle(component, between);
    const steps = path.split(' → ');
    const via = steps.slice(1).map(
      (to, i) =>
        `    ${steps[i]} → ${to}: ${between
          .filter((e) => e.from === steps[i] && e.to === to)
          .map((e) => e.via)
          .join(', ')}`,
    );
    return [path, ...via].join('\n');
  });
}

/** A layer rule of DESIGN.md ("Layout"): which importers may not import which files. */
export type LayerRule = {
  rule: string;
  importer: (file: string) => boolean;
  forbidden: (file: string) => boolean;
  /** Type-only imports count too (they still tie the code to the other layer). */
  types: boolean;
  /** Importers that are themselves what the rule protects, with the reason. */
  allowed?: Record<string, string>;
};

const under =
  (...dirs: string[]) =>
  (file: string) =>
    dirs.some((dir) => file.startsWith(`${dir}/`));
const DELIVERY = ['server/api', 'server/trpc', 'server/http'];
/** The ground floor: pure shared facts (statuses, event types, VAT rates, error codes) every other layer reads. */
export const GROUND_FLOOR = 'server/facts';

export const LAYER_RULES: LayerRule[] = [
  {
    rule: `${GROUND_FLOOR} (the ground floor of pure shared facts) imports nothing of the product outside itself`,
    importer: under(GROUND_FLOOR),
    forbidden: (file: string) => !under(GROUND_FLOOR)(file),
    types: true,
  },
  ...['emulators', 'worker', 'app'].map((layer) => ({
    rule: `no product import of ${layer}/ from outside it`,
    importer: (file: string) => !file.startsWith(`${layer}/`),
    forbidden: under(layer),
    types: true,
  })),
  {
    rule: 'the delivery layers (server/http, server/api, server/trpc) are called, never imported by the folders they call',
    importer: (file: string) => file.startsWith('server/') && !under(...DELIVERY)(file),
    forbidden: under(...DELIVERY),
    types: false,
    allowed: {
      // the /hooks/woocommerce route's handler: it is itself an HTTP receiver, so it reads bodies with http/'s limits
      'server/stores/ingest.ts': 'the shop webhook receiver reads its request body with the /v1 limits',
    },
  },
  {
    rule: 'server/orders (pure) and server/ksef (no database) do not import the database client or schema',
    importer: under('server/orders', 'server/ksef'),
    forbidden: (file: string) => file === 'server/db/client.ts' || file.startsWith('server/db/schema/'),
    types: false,
  },
];

/** Imports of the ground floor's files that leave it, packages and Node built-ins included: the facts do no I/O. */
export function groundFloorLeaks(root: string, files = listProductFiles(root)): string[] {
  return files
    .filter(under(GROUND_FLOOR))
    .flatMap((file) =>
      readSpecifiers(file, readFileSync(path.join(root, file), 'utf8')).map((spec) => ({ file, spec, to: resolveSpecifier(root, file, spec.text) })),
    )
    .filter(({ to }) => to === null || !under(GROUND_FLOOR)(to))
    .map(({ file, spec }) => `${file} → ${spec.text}`);
}

/** Every import that breaks a layer rule, as `rule: importer → imported`. */
export function layerCrossings(edges: ImportEdge[], rules = LAYER_RULES): string[] {
  return rules.flatMap(({ rule, importer, forbidden, types, allowed }) =>
    edges.filter((e) => (types || !e.typeOnly) && importer(e.from) && forbidden(e.to) && !allowed?.[e.from]).map((e) => `${rule}: ${e.from} → ${e.to}`),
  );
}

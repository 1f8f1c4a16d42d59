import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { buildImportGraph, fileCycles, findCycles, folderCycles, folderEdges, layerCrossings, listProductFiles } from './import-graph';

/**
 * `npm run shape [-- --root DIR]`: figures on the shape of the product code (app/, server/, worker/, emulators/,
 * scripts/; tests left out): import cycles between files and folders, layer crossings, and long functions.
 * It prints; it checks nothing (scripts/import-graph.test.ts holds the cycles and crossings at zero).
 */
const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? path.resolve(process.argv[rootArg + 1]!) : process.cwd();

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

/** Every function of a file with its length in lines, first line to last, as ESLint's max-lines-per-function counts. */
function functionLengths(file: string): { where: string; lines: number }[] {
  const source = readFileSync(path.join(root, file), 'utf8');
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: { where: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (FUNCTION_KINDS.has(node.kind)) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ where: `${file}:${first + 1}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

const files = listProductFiles(root);
const edges = buildImportGraph(root, files);
const functions = files.flatMap(functionLengths);
const longest = [...functions].sort((a, b) => b.lines - a.lines);
const strictFolderCycles = findCycles(folderEdges(edges, { leaves: true }));

const lines = [
  `product files: ${files.length}, imports between them: ${edges.length} (${edges.filter((e) => e.typeOnly).length} type-only)`,
  `file cycles: ${fileCycles(edges).length}`,
  `folder cycles: ${folderCycles(edges).length}`,
  `folder cycles counting imports of leaf modules too: ${strictFolderCycles.length}${strictFolderCycles.map((c) => `\n  ${c.join(' ')}`).join('')}`,
  `layer crossings: ${layerCrossings(edges).length}`,
  `functions: ${functions.length}; over 50 lines: ${functions.filter((f) => f.lines > 50).length}; over 80 lines: ${functions.filter((f) => f.lines > 80).length}`,
  `longest functions:${longest
    .slice(0, 10)
    .map((f) => `\n  ${String(f.lines).padStart(4)} ${f.where}`)
    .join('')}`,
];
console.log(lines.join('\n'));

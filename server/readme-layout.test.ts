import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { CONFIG_KEYS, ROOT } from './config';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The lines of one `## ` section of the README. */
function section(title: string): string[] {
  const start = README.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README has no "## ${title}" section`);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end).split('\n');
}

/** Folders directly under `dir` that hold files git tracks or would track (ignored output such as .next/ is left out). */
function folders(dir: string): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', dir || '.'], { cwd: ROOT, encoding: 'utf8' });
  const names = new Set<string>();
  for (const file of files.split('\n')) {
    const rest = dir ? file.slice(dir.length + 1) : file;
    const slash = rest.indexOf('/');
    if (slash > 0 && !rest.startsWith('.') && existsSync(path.join(ROOT, dir, rest.slice(0, slash)))) names.add(rest.slice(0, slash));
  }
  return [...names].sort();
}

test("README's layout lists every folder under server/, one line each, and no folder that is gone", () => {
  const listed = section('Layout')
    .map((line) => /^server\/([^/\s]+)\/\s/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
  expect([...listed].sort()).toEqual(folders('server'));
  expect(new Set(listed).size).toBe(listed.length);
});

test("README's layout lists every top-level folder", () => {
  const listed = section('Layout')
    .map((line) => /^([a-z0-9-]+)\/\s/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
  expect([...listed].sort()).toEqual(folders(''));
});

test("README's configuration table documents exactly the variables server/config.ts reads", () => {
  const documented = section('Configuration')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...line.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
  expect(new Set(documented).size).toBe(documented.length);
  expect([...documented].sort()).toEqual([...CONFIG_KEYS].sort());
});

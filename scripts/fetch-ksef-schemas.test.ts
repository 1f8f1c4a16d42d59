import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { config, ROOT } from '@/server/config';

/** A local mirror laid out like the Ministry's repository, built from the shared copies (file:// instead of https). */
function mirror(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'kr-ksef-docs-'));
  const schemas = config().KSEF_SCHEMAS_DIR;
  const layout: [string, string][] = [
    ['schemat_FA(3)_v1-0E.xsd', 'faktury/schemy/FA/schemat_FA(3)_v1-0E.xsd'],
    ['bazowe/ElementarneTypyDanych_v10-0E.xsd', 'faktury/schemy/FA/bazowe/ElementarneTypyDanych_v10-0E.xsd'],
    ['bazowe/KodyKrajow_v10-0E.xsd', 'faktury/schemy/FA/bazowe/KodyKrajow_v10-0E.xsd'],
    ['bazowe/StrukturyDanych_v10-0E.xsd', 'faktury/schemy/FA/bazowe/StrukturyDanych_v10-0E.xsd'],
    ['auth/schemat_auth_v2-1.xsd', 'auth/schemy/schemat_auth_v2-1.xsd'],
    ['upo/upo-v4-3.xsd', 'faktury/upo/schemy/upo-v4-3.xsd'],
  ];
  for (const [local, remote] of layout) {
    mkdirSync(path.dirname(path.join(dir, remote)), { recursive: true });
    copyFileSync(path.join(schemas, local), path.join(dir, remote));
  }
  copyFileSync(config().KSEF_OPENAPI_PATH, path.join(dir, 'open-api.json'));
  return dir;
}

const fetchInto = (source: string, target: string) =>
  spawnSync('bash', [path.join(ROOT, 'scripts/fetch-ksef-schemas.sh'), target], {
    env: { ...process.env, KSEF_DOCS_RAW_BASE: `file://${source}` },
    encoding: 'utf8',
  });

test('the deployment step fetches the pinned schemas and checks their SHA-256', () => {
  const source = mirror();
  const target = mkdtempSync(path.join(tmpdir(), 'kr-schemas-'));
  const ok = fetchInto(source, target);
  expect(ok.stderr).toBe('');
  expect(ok.status).toBe(0);
  expect(existsSync(path.join(target, 'schemat_FA(3)_v1-0E.xsd'))).toBe(true);
  expect(existsSync(path.join(target, 'bazowe/StrukturyDanych_v10-0E.xsd'))).toBe(true);

  appendFileSync(path.join(source, 'auth/schemy/schemat_auth_v2-1.xsd'), '<!-- changed -->');
  const tampered = fetchInto(source, mkdtempSync(path.join(tmpdir(), 'kr-schemas-')));
  expect(tampered.status).not.toBe(0);
  expect(tampered.stderr).toContain('checksum mismatch: auth/schemat_auth_v2-1.xsd');
});

import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { ROOT } from '@/server/config';
import { startEmbeddedPostgres } from '@/server/db/embedded';
import { migrateDatabase } from '@/server/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDatabase: string;
  }
}

/**
 * One migrated template database per run; every *.db.test.ts file clones it (graphile-worker's recipe).
 * Uses DATABASE_URL's server when set, otherwise an embedded cluster of its own under .data/pg-test.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  if (!adminUrl) {
    const pg = await startEmbeddedPostgres(path.join(ROOT, '.data/pg-test'), 54339);
    adminUrl = pg.adminUrl;
    stop = pg.stop;
  }
  const template = `kr_template_${process.pid}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${template}`);
  await admin.unsafe(`create database ${template}`);
  await migrateDatabase(withDatabase(adminUrl, template));
  await admin.unsafe(`alter database ${template} with is_template true`);
  project.provide('adminUrl', adminUrl);
  project.provide('templateDatabase', template);
  return async () => {
    await admin.unsafe(`alter database ${template} with is_template false`);
    await admin.unsafe(`drop database if exists ${template} with (force)`);
    await admin.end();
    await stop?.();
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

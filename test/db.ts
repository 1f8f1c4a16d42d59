import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDb, type Db } from '@/server/db/client';
import { withDatabase } from './global-setup';

/** A fresh database per test file, cloned from the migrated template: files run in parallel and any order. */
export function useTestDatabase(): { url: () => string; db: () => Db } {
  const name = `kr_${randomBytes(6).toString('hex')}`;
  const adminUrl = inject('adminUrl');
  const url = withDatabase(adminUrl, name);
  let handle: Db | undefined;
  beforeAll(async () => {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database ${name} template ${inject('templateDatabase')}`);
    } finally {
      await admin.end();
    }
    handle = createDb(url);
  });
  afterAll(async () => {
    await handle?.$client.end();
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  return {
    url: () => url,
    db: () => {
      if (!handle) throw new Error('useTestDatabase: the database exists only inside tests and hooks');
      return handle;
    },
  };
}

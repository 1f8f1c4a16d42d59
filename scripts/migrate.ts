import { config } from '@/server/config';
import { describeError } from '@/server/db/describe-error';
import { migrateDatabase } from '@/server/db/migrate';
import { log } from '@/server/observability/log';

/** `npm run migrate`: brings DATABASE_URL to this build's schema (our migrations, then graphile-worker's). Run once per deploy, before the new web and worker processes. */
async function main() {
  const url = config().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  await migrateDatabase(url);
  log.info({}, 'migrations_applied');
}

main().catch((err) => {
  log.fatal({ err, reason: describeError(err) }, 'migrate_failed');
  process.exit(1);
});

import { config } from '@/server/config';
import { describeError } from '@/server/db/describe-error';
import { migrateDatabase } from '@/server/db/migrate';
import { checkProcessConfig } from '@/server/observability/check-config';
import { log } from '@/server/observability/log';

/** `npm run migrate`: brings DATABASE_URL to this build's schema (our migrations, then graphile-worker's). Run once per deploy, before the new web and worker processes. */
async function main() {
  if (!checkProcessConfig('migrate', ['DATABASE_URL'])) process.exit(1);
  await migrateDatabase(String(config().DATABASE_URL));
  log.info({}, 'migrations_applied');
}

main().catch((err) => {
  log.fatal({ err, reason: describeError(err) }, 'migrate_failed');
  process.exit(1);
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config, resetConfig } from '@/server/config';
import { DATA_DIR } from '@/server/db/locate';
import { randomToken } from '@/server/ids';

const FILE = path.join(DATA_DIR, 'stack.json');
type StackFile = { KSEF_TEST_BASE_URL?: string; NBP_BASE_URL?: string; SMTP_URL?: string; ALLOW_PRIVATE_TARGETS?: string };

/** The running stack's service URLs and address policy, so the CLI reaches the same emulators without any setting. */
export const writeStackFile = (values: StackFile) => writeFileSync(FILE, JSON.stringify(values, null, 2));

export function readStackFile(): StackFile {
  return existsSync(FILE) ? (JSON.parse(readFileSync(FILE, 'utf8')) as StackFile) : {};
}

/** Where the local KSeF emulator is: the setting, the running stack's, or its default port. */
export const ksefEmulatorUrl = (): string =>
  process.env.KSEF_TEST_BASE_URL ?? readStackFile().KSEF_TEST_BASE_URL ?? `http://127.0.0.1:${config().KSEF_EMULATOR_PORT}/v2`;

/** The CLI beside a local stack follows its address policy (a store on loopback), unless the setting says otherwise. */
export function followStackPolicy(): void {
  const allow = readStackFile().ALLOW_PRIVATE_TARGETS;
  if (process.env.ALLOW_PRIVATE_TARGETS !== undefined || allow === undefined) return;
  process.env.ALLOW_PRIVATE_TARGETS = allow;
  resetConfig();
}

/**
 * APP_SECRET from the environment, or the one the dev stack generated into .data/app-secret (created on first
 * use), so the stack, the CLI and the worker seal and unseal with the same key.
 */
export function loadAppSecret(): string {
  if (!process.env.APP_SECRET) {
    const file = path.join(DATA_DIR, 'app-secret');
    mkdirSync(DATA_DIR, { recursive: true });
    if (!existsSync(file)) writeFileSync(file, randomToken(256), { mode: 0o600 });
    process.env.APP_SECRET = readFileSync(file, 'utf8').trim();
    resetConfig(); // parsed before the secret existed
  }
  return process.env.APP_SECRET;
}

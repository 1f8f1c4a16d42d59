import path from 'node:path';
import { z } from 'zod';

/** Project root: npm scripts, tests and the Next.js server all run from it. */
export const ROOT = process.cwd();

const ZConfig = z.object({
  DATABASE_URL: z.string().optional(),
  PORT: z.coerce.number().int().positive().default(3000),
  PUBLIC_BASE_URL: z.string().url().optional(),
  ERRORS_PAGE_URL: z.string().url().optional(),
  /** Encrypts KSeF credentials and webhook secrets (AES-256-GCM); the dev stack makes one under .data/. */
  APP_SECRET: z.string().min(16).optional(),
  /** The official KSeF XSDs and OpenAPI, read at run time, never copied into the repo. */
  KSEF_SCHEMAS_DIR: z.string().default(path.resolve(ROOT, '../shared/ksef/schemas')),
  KSEF_OPENAPI_PATH: z.string().default(path.resolve(ROOT, '../shared/ksef/openapi/open-api.json')),
  /** Base URL of KSeF per environment; the test one points at the local emulator in dev and tests. */
  KSEF_TEST_BASE_URL: z.string().url().default('https://api-test.ksef.mf.gov.pl/v2'),
  KSEF_DEMO_BASE_URL: z.string().url().default('https://api-demo.ksef.mf.gov.pl/v2'),
  KSEF_PROD_BASE_URL: z.string().url().default('https://api.ksef.mf.gov.pl/v2'),
  NBP_BASE_URL: z.string().url().default('https://api.nbp.pl/api'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('KSeF Relay <faktury@ksef-relay.local>'),
});

export type Config = z.infer<typeof ZConfig> & { PUBLIC_BASE_URL: string; ERRORS_PAGE_URL: string };

let cached: Config | undefined;

/** Environment parsed once (t3 style); call sites read `config()` rather than process.env. */
export function config(): Config {
  if (cached) return cached;
  const parsed = ZConfig.parse(process.env);
  const publicBase = (parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/$/, '');
  cached = { ...parsed, PUBLIC_BASE_URL: publicBase, ERRORS_PAGE_URL: parsed.ERRORS_PAGE_URL ?? `${publicBase}/docs/errors` };
  return cached;
}

/** Tests change the environment between files; they reset the parsed copy. */
export function resetConfig(): void {
  cached = undefined;
}

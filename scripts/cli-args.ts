import type { parseArgs, ParseArgsConfig } from 'node:util';
import type { Db } from '@/server/db/client';

/** A refusal of the command line itself: exit code 2. */
export class UsageError extends Error {}

/** The flags every command may take. */
export const CLI_OPTIONS = {
  email: { type: 'string' },
  password: { type: 'string' },
  'seller-nip': { type: 'string' },
  'seller-name': { type: 'string' },
  'seller-address1': { type: 'string' },
  'seller-address2': { type: 'string' },
  'ksef-emulator': { type: 'boolean' },
  'monthly-limit': { type: 'string' },
  mode: { type: 'string' },
  url: { type: 'string' },
  'consumer-key': { type: 'string' },
  'consumer-secret': { type: 'string' },
  since: { type: 'string' },
  'invoice-statuses': { type: 'string' },
  'nip-meta-keys': { type: 'string' },
  'payment-methods': { type: 'string' },
  'no-customer-note': { type: 'boolean' },
  start: { type: 'string' },
  end: { type: 'string' },
  note: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export type CliValues = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof CLI_OPTIONS }>>['values'];

/** One `group command`: the argument after it, the flags; what it answers is printed as JSON. */
export type CliCommand = (db: Db, arg: string | undefined, values: CliValues) => Promise<unknown>;

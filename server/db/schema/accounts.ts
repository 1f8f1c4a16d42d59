import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { MEMBER_ROLES } from '@/server/accounts/permissions';
import { ksefEnvironmentEnum, modeEnum } from './enums';

export { MEMBER_ROLES, type MemberRole } from '@/server/accounts/permissions';

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: text().primaryKey(), // usr_…
  email: text().notNull().unique(),
  passwordHash: text().notNull(),
  createdAt: createdAt(),
  /** Sessions signed in before this instant are refused: set when the password is reset (a stolen session ends). */
  sessionsValidFrom: timestamp({ withTimezone: true }),
});

export const accounts = pgTable('accounts', {
  id: text().primaryKey(), // acct_…
  email: text(),
  platform: text({ enum: ['api', 'shopplatform'] })
    .notNull()
    .default('api'),
  liveEnabled: boolean().notNull().default(false),
  disabledAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
});

export const memberships = pgTable(
  'memberships',
  {
    userId: text()
      .notNull()
      .references(() => users.id),
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    /** What the member may do: server/accounts/permissions.ts. */
    role: text({ enum: MEMBER_ROLES }).notNull().default('owner'),
    /** The attention e-mails (server/attention): on unless the member turned them off on the dashboard. */
    attentionEmails: boolean().notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.accountId] })],
);

/** An owner's invitation of a person by e-mail; the link's token is known only to the e-mail (its SHA-256 here). */
export const invites = pgTable(
  'invites',
  {
    id: text().primaryKey(), // mi_…
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    email: text().notNull(),
    role: text({ enum: MEMBER_ROLES }).notNull(),
    tokenHash: text().notNull(),
    invitedBy: text()
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('invites_token_hash_uq').on(t.tokenHash), index('invites_account_idx').on(t.accountId)],
);

/** A password reset link (server/accounts/password-reset.ts): only the token's SHA-256 is kept, as for invitations. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: text().primaryKey(), // pr_…
    userId: text()
      .notNull()
      .references(() => users.id),
    tokenHash: text().notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('password_resets_token_hash_uq').on(t.tokenHash), index('password_resets_user_idx').on(t.userId, t.createdAt)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text().primaryKey(), // key_…
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    /** Shown in lists so a person can tell keys apart: `sk_test_` plus 4 characters. */
    prefix: text().notNull(),
    /** What the owner calls the key ("WooCommerce shop", "ERP"): set at creation, renamable. */
    name: text(),
    /** SHA-256 of the whole key, hex; the key itself is never stored. */
    hash: text().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.hash), index('api_keys_account_idx').on(t.accountId, t.mode)],
);

/** Everything that differs between test and live mode of one account. */
export const accountModes = pgTable(
  'account_modes',
  {
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    sellerNip: text(),
    sellerName: text(),
    sellerAddress1: text(),
    sellerAddress2: text(),
    /** The seller accounts VAT by the cash method (metoda kasowa, art. 21 ust. 1): FA(3) P_16 = 1. */
    cashAccounting: boolean().notNull().default(false),
    ksefEnvironment: ksefEnvironmentEnum().notNull(),
    /** AES-256-GCM sealed JSON of the KSeF token or certificate + key (invariant 6). */
    ksefCredential: text(),
    ksefCredentialKind: text({ enum: ['token', 'certificate'] }),
    /** Bumped on every credential change so cached KSeF auth and waiting documents know to retry. */
    ksefCredentialVersion: integer().notNull().default(0),
    /** notAfter of a certificate credential, read when it is saved (a token carries no expiry we can read). */
    ksefCredentialValidTo: timestamp({ withTimezone: true }),
    ksefConnected: boolean().notNull().default(false),
    ksefCheckError: text().default('not connected'),
    ksefCheckedAt: timestamp({ withTimezone: true }),
    /** AES-256-GCM sealed { certificatePem, privateKeyPem } of the KSeF certificate of type Offline (KOD II). */
    offlineCertificate: text(),
    offlineCertificateSerial: text(),
    offlineCertificateValidFrom: timestamp({ withTimezone: true }),
    offlineCertificateValidTo: timestamp({ withTimezone: true }),
    offlineCertificateSource: text({ enum: ['upload', 'enrolment'] }),
    /** A KSeF enrolment under way (reference number, sealed key) or its last error. */
    offlineEnrolment: text(),
    offlineEnrolmentError: text(),
    /** off | when KSeF does not answer for offlineDelaySeconds | always (offline-first). */
    offlinePolicy: text({ enum: ['off', 'when_unavailable', 'always'] })
      .notNull()
      .default('off'),
    offlineDelaySeconds: integer().notNull().default(300),
    planName: text().notNull().default('Unlimited'),
    monthlyLimit: integer(),
    createdAt: createdAt(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.mode] })],
);

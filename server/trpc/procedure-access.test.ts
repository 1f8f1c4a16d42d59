import { expect, test } from 'vitest';
import type { Access, ProcedureMeta } from './init';
import { appRouter } from './root';

/**
 * Every dashboard procedure and who may call it (issue 34). A new procedure fails this test until it is listed
 * here: its author chooses, and a reviewer sees the choice. `read`: any member (the accountant too); `manage`:
 * owners only (server/accounts/permissions.ts).
 */
const EXPECTED: Record<string, Access> = {
  'auth.signUp': 'public',
  'auth.requestPasswordReset': 'public',
  'auth.previewPasswordReset': 'public',
  'auth.resetPassword': 'public',
  'invites.preview': 'public',
  'invites.signUp': 'public',
  'invites.accept': 'session',
  'account.me': 'account',
  'account.overview': 'read',
  'account.setAttentionEmails': 'read', // the member's own e-mail preference
  'account.seller': 'manage',
  'account.updateSeller': 'manage',
  'exports.summary': 'read',
  'invoices.search': 'read',
  'invoices.detail': 'read',
  'invoices.correctionForm': 'manage',
  'invoices.createCorrection': 'manage',
  'invoices.retry': 'manage',
  'events.list': 'read',
  'offline.summary': 'read',
  'offline.status': 'manage',
  'offline.uploadCertificate': 'manage',
  'offline.enrol': 'manage',
  'offline.setPolicy': 'manage',
  'offline.technicalCorrection': 'manage',
  'ksef.status': 'manage',
  'ksef.saveToken': 'manage',
  'ksef.saveCertificate': 'manage',
  'ksef.testConnection': 'manage',
  'ksef.connectEmulator': 'manage',
  'apiKeys.list': 'manage',
  'apiKeys.create': 'manage',
  'apiKeys.revoke': 'manage',
  'apiKeys.rename': 'manage',
  'webhooks.list': 'manage',
  'webhooks.get': 'manage',
  'webhooks.create': 'manage',
  'webhooks.delete': 'manage',
  'webhooks.deliveries': 'manage',
  'webhooks.resend': 'manage',
  'webhooks.sendTest': 'manage',
  'stores.status': 'manage',
  'stores.connect': 'manage',
  'stores.settings': 'manage',
  'stores.disconnect': 'manage',
  'stores.sync': 'manage',
  'members.list': 'manage',
  'members.invite': 'manage',
  'members.revokeInvite': 'manage',
  'members.changeRole': 'manage',
  'members.remove': 'manage',
};

test('every procedure has an access class, and it is the one listed here', () => {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta } }>;
  const actual = Object.fromEntries(Object.entries(procedures).map(([path, p]) => [path, p._def.meta?.access ?? 'UNCLASSIFIED']));
  expect(actual).toEqual(EXPECTED);
});

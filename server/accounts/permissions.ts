/**
 * owner: everything; accountant: documents, registers and archives, read-only (issue 34). Pure (no drizzle), so
 * the browser bundle can read it; the memberships' and invites' role columns are made from this list.
 */
export const MEMBER_ROLES = ['owner', 'accountant'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * What a dashboard call or page needs. `read`: documents, events, registers and archives, and the member's own
 * preferences. `manage`: everything that holds a secret or credential (API keys, webhook secrets, KSeF
 * credentials, store keys), the seller data and settings, members and invites, and writes that send documents.
 */
export const PERMISSIONS = ['read', 'manage'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The one table of what each role may do (issue 34: the accountant reads, the owner runs the account). */
const GRANTS: Record<MemberRole, readonly Permission[]> = {
  owner: ['read', 'manage'],
  accountant: ['read'],
};

export const may = (role: MemberRole, permission: Permission): boolean => GRANTS[role].includes(permission);

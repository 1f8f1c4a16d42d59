/** Owner-only pages (server/accounts/permissions.ts): checked on the server before the page renders. */
export { OwnerOnly as default } from '@/app/dashboard/owner-only';

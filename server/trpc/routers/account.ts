import { z } from 'zod';
import { getAccountMode, getAccountOverview, isSellerConfigured, updateSeller } from '@/server/accounts/account-settings';
import { countByStatus } from '@/server/documents/count-by-status';
import { listDocumentsPerDay } from '@/server/documents/documents-per-day';
import { ksefUsage } from '@/server/documents/ksef-usage';
import { monthTotals } from '@/server/exports/month-totals';
import { getQueueDepth } from '@/server/documents/queue-depth';
import { getSetupChecklist } from '@/server/accounts/setup-checklist';
import { listUserAccounts } from '@/server/accounts/find-membership';
import { attentionEmailsOn, setAttentionEmails } from '@/server/attention/email-opt-out';
import { listAttention } from '@/server/attention/find-attention';
import { ZSellerData } from '@/server/accounts/seller-data';
import { getSendingStatus } from '@/server/submission/sending-status';
import { accountProcedure, memberProcedure, ownerProcedure, router } from '@/server/trpc/init';

export const accountRouter = router({
  me: accountProcedure.query(async ({ ctx }) => ({
    email: ctx.membership.email,
    accountId: ctx.membership.accountId,
    liveEnabled: ctx.membership.liveEnabled,
    mode: ctx.mode,
    role: ctx.membership.role,
    accounts: await listUserAccounts(ctx.db, ctx.membership.userId),
  })),
  overview: memberProcedure.query(async ({ ctx }) => {
    const now = new Date();
    const [overview, checklist, counts, perDay, queue, status, attention, attentionEmails, money, usage] = await Promise.all([
      getAccountOverview(ctx.db, ctx.scope),
      getSetupChecklist(ctx.db, ctx.scope),
      countByStatus(ctx.db, ctx.scope),
      listDocumentsPerDay(ctx.db, ctx.scope, 30),
      getQueueDepth(ctx.db, ctx.scope),
      getSendingStatus(ctx.db, ctx.scope),
      listAttention(ctx.db, ctx.scope, now),
      attentionEmailsOn(ctx.db, ctx.membership.userId, ctx.scope.accountId),
      monthTotals(ctx.db, ctx.scope, now),
      ksefUsage(ctx.db, ctx.scope, now),
    ]);
    return {
      // invariant 10: what needs the merchant, and whether this member gets it by e-mail
      attention: { entries: attention, emails: attentionEmails },
      plan: {
        name: overview.mode.planName,
        monthlyLimit: ctx.scope.mode === 'test' ? null : overview.mode.monthlyLimit,
        issuedThisMonth: overview.issuedThisMonth,
      },
      checklist,
      money,
      counts,
      perDay,
      sending: {
        queue,
        environment: overview.mode.ksefEnvironment,
        connected: overview.mode.ksefConnected,
        checkError: overview.mode.ksefCheckError,
        method: status.mode,
        // this account's own documents, and the hourly limit of invoices sent one by one that they count against
        usage: { ...usage, perHour: status.windows.find((w) => w.group === 'invoiceSend')?.perHour ?? null },
        blockedUntil: status.blockedUntil?.toISOString() ?? null,
      },
    };
  }),
  setAttentionEmails: memberProcedure.input(z.object({ on: z.boolean() })).mutation(async ({ ctx, input }) => {
    await setAttentionEmails(ctx.db, ctx.membership.userId, ctx.scope.accountId, input.on);
    return { on: input.on };
  }),
  seller: ownerProcedure.query(async ({ ctx }) => {
    const { mode } = await getAccountMode(ctx.db, ctx.scope);
    return {
      nip: mode.sellerNip ?? '',
      name: mode.sellerName ?? '',
      address1: mode.sellerAddress1 ?? '',
      address2: mode.sellerAddress2 ?? '',
      cashAccounting: mode.cashAccounting,
      configured: isSellerConfigured(mode),
    };
  }),
  updateSeller: ownerProcedure.input(ZSellerData).mutation(async ({ ctx, input }) => {
    await updateSeller(ctx.db, ctx.scope, {
      nip: input.nip,
      name: input.name,
      address1: input.address1,
      address2: input.address2 || undefined,
      cashAccounting: input.cashAccounting,
    });
    const { mode } = await getAccountMode(ctx.db, ctx.scope);
    return { configured: isSellerConfigured(mode) };
  }),
});

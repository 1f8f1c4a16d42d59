import 'server-only';
import { getAccountOverview, isSellerConfigured } from '@/server/accounts/account-settings';
import type { Endpoint } from '@/server/http/route';

export const retrieveAccount: Endpoint<void> = {
  handle: async ({ db, scope }) => {
    const { mode, account, issuedThisMonth } = await getAccountOverview(db, scope);
    return {
      status: 200,
      body: {
        id: account.id,
        object: 'account',
        livemode: scope.mode === 'live',
        email: account.email,
        platform: account.platform,
        ksef_environment: mode.ksefEnvironment,
        seller: { nip: mode.sellerNip, name: mode.sellerName, address_line1: mode.sellerAddress1, address_line2: mode.sellerAddress2 },
        seller_configured: isSellerConfigured(mode),
        ksef_connected: mode.ksefConnected,
        ksef_check_error: mode.ksefConnected ? null : mode.ksefCheckError,
        plan: {
          name: scope.mode === 'test' ? 'Unlimited' : mode.planName,
          monthly_limit: scope.mode === 'test' ? null : mode.monthlyLimit,
          used_this_month: issuedThisMonth,
        },
      },
    };
  },
};

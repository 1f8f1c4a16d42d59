import { observed } from '@/server/http/route';
import { receiveStoreDelivery, wrongHookMethod } from '@/server/stores/ingest';
import { woocommerce } from '@/server/stores/woocommerce/platform';

export const dynamic = 'force-dynamic';

/** WooCommerce webhook deliveries of a connected store; no API key: the path and the signature identify the store. */
export async function POST(req: Request, ctx: { params: Promise<{ store: string }> }): Promise<Response> {
  const { store } = await ctx.params;
  return observed(req, false, (requestId) => receiveStoreDelivery(woocommerce, req, store, requestId));
}

const notAllowed = (req: Request) => observed(req, false, async (requestId) => wrongHookMethod(woocommerce, requestId));
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };

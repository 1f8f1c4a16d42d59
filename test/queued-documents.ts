import { randomNip } from '@/emulators/ksef/testing';
import type { Db } from '@/server/db/client';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { prepareDocument } from '@/server/documents/prepare-document';
import { parseOrderInput } from '@/server/orders/order-schema';
import { createTestAccount, VALID_SELLER } from './factories';
import { paidOrder } from './orders';
import type { useKsefEmulator } from './pipeline';

/** A new seller connected to the KSeF emulator, with `n` invoices numbered and queued, each with its send job. */
export async function queuedDocuments(db: Db, ksef: ReturnType<typeof useKsefEmulator>, n: number) {
  const nip = randomNip();
  const acct = await createTestAccount(db, { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(db, acct.testScope, nip);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { document } = await createInvoiceDocument(db, acct.testScope, parseOrderInput(paidOrder()));
    await prepareDocument(db, document.id);
    ids.push(document.id);
  }
  return { nip, scope: acct.testScope, ids };
}

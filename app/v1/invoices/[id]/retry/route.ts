import { retryInvoice } from '@/server/api/invoices';
import { v1Routes } from '@/server/http/route';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE } = v1Routes({ POST: retryInvoice });

import { salesRegister } from '@/server/api/exports';
import { v1Routes } from '@/server/http/route';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE } = v1Routes({ GET: salesRegister });

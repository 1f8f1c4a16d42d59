import { retrieveAccount } from '@/server/api/account';
import { v1Routes } from '@/server/http/route';

export const dynamic = 'force-dynamic';
export const { GET, POST, PUT, PATCH, DELETE } = v1Routes({ GET: retrieveAccount });

import { handleTrpc } from '@/server/trpc/handler';

export const dynamic = 'force-dynamic';
export const GET = handleTrpc;
export const POST = handleTrpc;

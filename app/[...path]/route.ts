import { routeNotFound } from '@/server/http/route';

export const dynamic = 'force-dynamic';
export { routeNotFound as GET, routeNotFound as POST, routeNotFound as PUT, routeNotFound as PATCH, routeNotFound as DELETE };

import NextAuth from 'next-auth';
import { authOptions } from '@/server/auth/next-auth';

export const dynamic = 'force-dynamic';

// Options are built per request: they read APP_SECRET, which `next build` does not have.
const handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) => NextAuth(req as never, ctx as never, authOptions());

export { handler as GET, handler as POST };

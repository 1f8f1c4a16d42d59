import { downloadExport } from '@/server/trpc/download-export';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ kind: string }> }) {
  const { kind } = await ctx.params;
  return downloadExport(req, kind);
}

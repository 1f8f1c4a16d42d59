import { downloadDocumentFile } from '@/server/trpc/download-file';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string; kind: string }> }) {
  const { id, kind } = await ctx.params;
  return downloadDocumentFile(req, id, kind);
}

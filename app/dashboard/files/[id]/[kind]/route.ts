import { downloadDocumentFile } from '@/server/trpc/download-file';
import { methodNotAllowed } from '@/server/http/route';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ id: string; kind: string }> }) {
  const { id, kind } = await ctx.params;
  return downloadDocumentFile(req, id, kind);
}

const otherMethod = methodNotAllowed('GET');
export { otherMethod as POST, otherMethod as PUT, otherMethod as PATCH, otherMethod as DELETE };

import { getPublicPdf } from '@/server/api/document-files';
import { methodNotAllowed } from '@/server/http/route';

export const dynamic = 'force-dynamic';
export { getPublicPdf as GET };

const otherMethod = methodNotAllowed('GET');
export { otherMethod as POST, otherMethod as PUT, otherMethod as PATCH, otherMethod as DELETE };

import { getPublicPdf } from '@/server/api/document-files';

export const dynamic = 'force-dynamic';
export { getPublicPdf as GET };

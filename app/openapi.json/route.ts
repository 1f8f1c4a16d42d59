import { openApiDocument } from '@/server/api/openapi';
import { config } from '@/server/config';
import { methodNotAllowed } from '@/server/http/route';

export const dynamic = 'force-dynamic';

/** The OpenAPI 3.1 document of /v1: public (no key), outside /v1 so it never counts toward a key's rate limit. */
export const GET = () => Response.json(openApiDocument(config().PUBLIC_BASE_URL), { headers: { 'Cache-Control': 'public, max-age=300' } });

const otherMethod = methodNotAllowed('GET');
export { otherMethod as POST, otherMethod as PUT, otherMethod as PATCH, otherMethod as DELETE };

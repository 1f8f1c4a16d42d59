import { z } from 'zod';

/** Jobs outlive deploys: payloads are parsed, not trusted (graphile-worker's advice). */
export const ZDocumentJob = z.object({ documentId: z.string().min(1) });
export const ZStatusJob = z.object({ documentId: z.string().min(1), poll: z.number().int().nonnegative().default(0) });

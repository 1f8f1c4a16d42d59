import { z } from 'zod';

/** What a dashboard user's e-mail and password must be: at sign-up, on an invitation and on a password reset. */
export const ZEmail = z.email().max(254);
export const ZPassword = z.string().min(10, 'at least 10 characters').max(200);

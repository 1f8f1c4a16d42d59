import 'server-only';
import { initTRPC, TRPCError } from '@trpc/server';
import superjson from 'superjson';
import { ZodError } from 'zod';
import type { Db } from '@/server/db/client';
import type { Mode } from '@/server/db/schema';
import { may, type Permission } from '@/server/accounts/permissions';
import { resolveDashboardScope } from '@/server/auth/dashboard-session';
import { AppError } from '@/server/errors';
import { ERRORS } from '@/server/facts/error-codes';

/** What every procedure sees: the database, the signed-in user (if any), the mode and the account chosen in cookies. */
export type TrpcContext = { db: Db; userId: string | null; mode: Mode; accountId?: string | null };

/**
 * Who may call a procedure, set by the builder it is made from: `public` (no session), `session` (signed in, with
 * or without a membership), `account` (any member, no scope), or a permission of the role table
 * (server/accounts/permissions.ts). routers.access.test.ts lists every procedure's class.
 */
export type Access = 'public' | 'session' | 'account' | Permission;
export type ProcedureMeta = { access: Access };

const t = initTRPC
  .context<TrpcContext>()
  .meta<ProcedureMeta>()
  .create({
    transformer: superjson,
    // The service's own error code, field, finer cause and values travel to the forms, which show the message
    // beside that field in the user's language (app/components/error-text.ts); the English message is a fallback.
    errorFormatter: ({ shape, error }) => {
      const cause = error.cause;
      const app =
        cause instanceof AppError
          ? { code: cause.code, param: cause.param ?? null, detail: cause.extra.detail ?? null, params: cause.extra.params ?? null }
          : null;
      const zod = cause instanceof ZodError ? { code: 'parameter_invalid', param: cause.issues[0]?.path.join('.') ?? null } : null;
      return { ...shape, data: { ...shape.data, stack: undefined, appError: app ?? zod } };
    },
  });

const HTTP_TO_TRPC = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
} as const;

/** AppErrors keep their message and code; anything else stays an internal error without details. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    const status = ERRORS[cause.code].status as keyof typeof HTTP_TO_TRPC | null;
    throw new TRPCError({ code: (status && HTTP_TO_TRPC[status]) || 'BAD_REQUEST', message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
const baseProcedure = t.procedure.use(appErrors);
export const publicProcedure = baseProcedure.meta({ access: 'public' });

/** A signed-in user, whether or not a member of an account (accepting an invitation). */
export const sessionProcedure = baseProcedure.meta({ access: 'session' }).use(({ ctx, next }) => {
  if (!ctx.userId) throw new TRPCError({ code: 'UNAUTHORIZED' });
  return next({ ctx: { ...ctx, userId: ctx.userId } });
});

/** t3's protectedProcedure: a signed-in user with an account, whatever the mode switch says. */
export const accountProcedure = baseProcedure.meta({ access: 'account' }).use(async ({ ctx, next }) => {
  const access = await resolveDashboardScope(ctx.db, ctx.userId, 'test', ctx.accountId);
  if (!access.ok) throw new TRPCError({ code: 'UNAUTHORIZED' });
  return next({ ctx: { ...ctx, membership: access.membership } });
});

/**
 * The membership and the test/live switch narrowed to a Scope (invariant 5): every service gets `ctx.scope`; the
 * member's role must grant the permission the procedure's builder names.
 */
const scopedProcedure = baseProcedure.use(async ({ ctx, meta, next }) => {
  const access = await resolveDashboardScope(ctx.db, ctx.userId, ctx.mode, ctx.accountId);
  if (!access.ok && access.reason === 'live_disabled') throw new AppError('live_mode_disabled');
  if (!access.ok) throw new TRPCError({ code: 'UNAUTHORIZED' });
  const needs = meta?.access;
  if (needs !== 'read' && needs !== 'manage') throw new Error(`a scoped procedure names no permission: ${String(needs)}`);
  if (!may(access.membership.role, needs)) throw new AppError('role_forbidden');
  return next({ ctx: { ...ctx, membership: access.membership, scope: access.scope } });
});

/** Reading documents, events, registers and archives: every member. */
export const memberProcedure = scopedProcedure.meta({ access: 'read' });
/** Keys, secrets, credentials, settings, members, and writes that send documents: owners only. */
export const ownerProcedure = scopedProcedure.meta({ access: 'manage' });

import 'server-only';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { config } from '@/server/config';
import { db } from '@/server/db/client';
import { deriveAuthSecret } from './auth-secret';
import { verifySignIn } from './sign-in';

/** next-auth reads NEXTAUTH_URL itself; the service's public address is the one truth. */
export function ensureNextAuthUrl(): void {
  process.env.NEXTAUTH_URL ??= config().PUBLIC_BASE_URL;
}

/** E-mail and password (argon2id), JWT sessions: no adapter tables, CSRF and cookies as next-auth does them. */
export function authOptions(): NextAuthOptions {
  ensureNextAuthUrl();
  return {
    secret: deriveAuthSecret(),
    session: { strategy: 'jwt', maxAge: 7 * 24 * 3600 },
    pages: { signIn: '/signin' },
    providers: [
      CredentialsProvider({
        name: 'e-mail',
        credentials: { email: { label: 'E-mail', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize: async (credentials) => {
          if (!credentials?.email || !credentials.password) return null;
          return verifySignIn(db(), credentials.email, credentials.password);
        },
      }),
    ],
    callbacks: {
      // the sign-in instant travels in the token, so a password reset can end the sessions signed in before it
      jwt: ({ token, user }) => (user ? { ...token, signedInAt: Date.now() } : token),
      session: ({ session, token }) => ({ ...session, userId: token.sub, signedInAt: token.signedInAt }),
    },
  };
}

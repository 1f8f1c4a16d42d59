import { ResetPasswordForm } from '@/app/components/reset-password-form';

export const metadata = { title: 'KSeF Relay · Nowe hasło' };
export const dynamic = 'force-dynamic';

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <ResetPasswordForm token={token} />;
}

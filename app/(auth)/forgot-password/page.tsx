import { ForgotPasswordForm } from '@/app/components/forgot-password-form';

export const metadata = { title: 'KSeF Relay · Zmiana hasła' };

export default function ForgotPasswordPage() {
  return <ForgotPasswordForm />;
}

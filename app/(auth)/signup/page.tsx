import { SignUpForm } from '@/app/components/sign-up-form';

export const metadata = { title: 'KSeF Relay · Rejestracja' };

export default function SignUpPage() {
  return <SignUpForm />;
}

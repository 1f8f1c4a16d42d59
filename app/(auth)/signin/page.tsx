import { SignInForm } from '@/app/components/sign-in-form';

export const metadata = { title: 'KSeF Relay · Logowanie' };

export default function SignInPage() {
  return <SignInForm />;
}

import { SignInForm } from '@/app/components/sign-in-form';
import { titled } from '@/app/i18n/request-locale';

export const generateMetadata = titled('signIn');

export default function SignInPage() {
  return <SignInForm />;
}

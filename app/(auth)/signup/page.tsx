import { SignUpForm } from '@/app/components/sign-up-form';
import { titled } from '@/app/i18n/request-locale';

export const generateMetadata = titled('signUp');

export default function SignUpPage() {
  return <SignUpForm />;
}

import { SellerForm } from '@/app/components/seller-form';

export default function SellerPage() {
  return <SellerForm />;
}

import { SellerForm } from '../../components/seller-form';

export default function SellerPage() {
  return <SellerForm />;
}

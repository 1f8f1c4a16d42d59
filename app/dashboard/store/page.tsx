import { StoreView } from '@/app/components/store-view';

export default function StorePage() {
  return <StoreView />;
}

import { ExportsView } from '@/app/components/exports-view';

export default function ExportsPage() {
  return <ExportsView />;
}

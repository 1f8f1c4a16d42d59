import { OverviewView } from '@/app/components/overview-view';

export const metadata = { title: 'KSeF Relay · Dashboard' };

export default function DashboardPage() {
  return <OverviewView />;
}

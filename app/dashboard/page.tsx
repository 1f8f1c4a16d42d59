import { OverviewView } from '@/app/components/overview-view';
import { titled } from '@/app/i18n/request-locale';

export const generateMetadata = titled('dashboard');

export default function DashboardPage() {
  return <OverviewView />;
}

import { InviteAccept } from '@/app/components/invite-accept';
import { readDashboardSession } from '@/server/auth/dashboard-session';
import { titled } from '@/app/i18n/request-locale';

export const generateMetadata = titled('invite');
export const dynamic = 'force-dynamic';

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { userId } = await readDashboardSession(null);
  return <InviteAccept token={token} signedIn={userId !== null} />;
}

import { InviteAccept } from '@/app/components/invite-accept';
import { readDashboardSession } from '@/server/auth/dashboard-session';

export const metadata = { title: 'KSeF Relay · Zaproszenie' };
export const dynamic = 'force-dynamic';

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { userId } = await readDashboardSession(null);
  return <InviteAccept token={token} signedIn={userId !== null} />;
}

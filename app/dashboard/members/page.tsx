import { MembersView } from '@/app/components/members-view';

export default function MembersPage() {
  return <MembersView />;
}

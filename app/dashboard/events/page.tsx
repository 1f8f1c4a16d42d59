import { EventsView } from '@/app/components/events-view';

export default function EventsPage() {
  return <EventsView />;
}

import { EventsView } from '../../components/events-view';

export default function EventsPage() {
  return <EventsView />;
}

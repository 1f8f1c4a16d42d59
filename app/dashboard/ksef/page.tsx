import { KsefConnection } from '../../components/ksef-connection';

export default function KsefPage() {
  return <KsefConnection />;
}

import Link from 'next/link';

export default function DashboardPage() {
  return (
    <main>
      <h1>KSeF Relay</h1>
      <p>The merchant dashboard is being built. The API is available under /v1; error codes are listed at <Link href="/docs/errors">/docs/errors</Link>.</p>
    </main>
  );
}

export default function DashboardPage() {
  return (
    <main>
      <h1>KSeF Relay</h1>
      <p>The merchant dashboard is being built. The API is available under /v1; error codes are listed at <a href="/docs/errors">/docs/errors</a>.</p>
    </main>
  );
}

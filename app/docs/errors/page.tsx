import { ERRORS } from '@/server/errors';

/** A route handler's page (Swagger UI), not a React page: a plain link, no client-side navigation. */
const API_REFERENCE = '/docs/api';

export const metadata = { title: 'Error codes · KSeF Relay' };

/** The page every `doc_url` points into: one anchored row per code of the error table. */
export default function ErrorsPage() {
  const rows = Object.entries(ERRORS);
  return (
    <main>
      <h1>Error codes</h1>
      <p>
        Every error has a stable <code>code</code>; programs should rely on it, not on <code>message</code>. Request errors come back at once as{' '}
        <code>{'{ "error": { … } }'}</code> with the HTTP status below; document errors appear later in a document&apos;s <code>last_error</code>.
      </p>
      <p>
        Every endpoint, its parameters, answers and the codes it can give are in the <a href={API_REFERENCE}>API reference</a> (
        <a href="/openapi.json">OpenAPI 3.1</a>).
      </p>
      <table className="error-table">
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">HTTP</th>
            <th scope="col">Type</th>
            <th scope="col">Meaning</th>
            <th scope="col">What to do</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([code, e]) => (
            <tr key={code} id={code}>
              <td>
                <a href={`#${code}`}>
                  <code>{code}</code>
                </a>
              </td>
              <td>{e.status ?? 'in last_error'}</td>
              <td>{e.type}</td>
              <td>{e.message}</td>
              <td>{e.help}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

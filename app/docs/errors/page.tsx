import { Fragment, type ReactNode } from 'react';
import { dictionaryFor } from '@/app/i18n/locale';
import { requestLocale, titled } from '@/app/i18n/request-locale';
import { ERRORS } from '@/server/facts/error-codes';

/** A route handler's page (Swagger UI), not a React page: a plain link, no client-side navigation. */
const API_REFERENCE = '/docs/api';

export const generateMetadata = titled('errors');

/** A dictionary sentence with `{name}` placeholders replaced by elements (code, links). */
function sentence(template: string, parts: Record<string, ReactNode>): ReactNode {
  return template.split(/\{(\w+)\}/).map((piece, i) => <Fragment key={i}>{i % 2 ? parts[piece] : piece}</Fragment>);
}

/** The page every `doc_url` points into: one anchored row per code of the error table, in the reader's language. */
export default async function ErrorsPage() {
  const locale = await requestLocale();
  const t = dictionaryFor(locale);
  const e = t.errorsPage;
  const rows = Object.entries(ERRORS);
  return (
    <main lang={locale}>
      <h1>{e.title}</h1>
      <p>
        {sentence(e.intro1, {
          code: <code>code</code>,
          message: <code>message</code>,
          envelope: <code>{'{ "error": { … } }'}</code>,
          lastError: <code>last_error</code>,
        })}
      </p>
      <p>
        {sentence(e.intro2, {
          reference: <a href={API_REFERENCE}>{e.reference}</a>,
          openapi: <a href="/openapi.json">OpenAPI 3.1</a>,
        })}
      </p>
      <table className="error-table">
        <thead>
          <tr>
            <th scope="col">{e.cols.code}</th>
            <th scope="col">{e.cols.http}</th>
            <th scope="col">{e.cols.type}</th>
            <th scope="col">{e.cols.meaning}</th>
            <th scope="col">{e.cols.todo}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([code, spec]) => (
            <tr key={code} id={code}>
              <td>
                <a href={`#${code}`}>
                  <code>{code}</code>
                </a>
              </td>
              <td>{spec.status ?? e.inLastError}</td>
              <td>{spec.type}</td>
              <td>{t.errorCodes[code]}</td>
              <td>{t.errorHelp[code]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

import type { ReactNode } from 'react';
import { requestLocale } from './i18n/request-locale';
import './globals.css';

export const metadata = { title: 'KSeF Relay', description: 'Polish e-invoices for online shops, sent to KSeF.' };

/** <html lang> from the same choice the pages are rendered in (cookie, else Accept-Language). */
export default async function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang={await requestLocale()}>
      <body>{children}</body>
    </html>
  );
}

import type { ReactNode } from 'react';
import './globals.css';

export const metadata = { title: 'KSeF Relay', description: 'Polish e-invoices for online shops, sent to KSeF.' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="pl">
      <body>{children}</body>
    </html>
  );
}

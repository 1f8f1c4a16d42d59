import type { ReactNode } from 'react';

/** Next.js wants a root layout beside any app/ folder, even one that holds only a route handler. */
export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

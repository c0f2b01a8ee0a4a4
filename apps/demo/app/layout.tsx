/**
 * The demo's root layout: page metadata, the top navigation and the global stylesheet.
 * Pitfall: a server component rendered for every page, static pages included: nothing here may
 * read the environment (the pin is read by each dynamic page, lib/pin.ts) or create a Nen client.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import './globals.css';

export const metadata: Metadata = {
  title: 'Nen demo: encrypted notes',
  description: 'Post-quantum end-to-end payload encryption for a Next.js API, seen from both sides of the wire.',
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="top">
          <Link href="/" className="brand">
            <span className="logo" aria-hidden="true">
              N
            </span>{' '}
            Nen <span className="brand-sub">encrypted notes</span>
          </Link>
          <p className="tagline">
            Every request and response body below crosses the network as <b>post-quantum ciphertext</b> (X-Wing + ChaCha20-Poly1305): TLS-terminating proxies,
            CDNs and logs see only the left column of the wire panel.
          </p>
          <nav>
            <Link href="/">Notes</Link>
            <Link href="/wire">Wire inspector</Link>
            <Link href="/assistant">Assistant</Link>
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}

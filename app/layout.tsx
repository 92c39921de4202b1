import type { Metadata, Viewport } from "next";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Mailplatform", template: "%s · Mailplatform" },
  description: "Broadcasts, sequences and contacts for teams.",
};

export const viewport: Viewport = { themeColor: "#ffffff" };

// Every page carries a fresh CSP nonce (proxy.ts), so none can be rendered ahead of time; the
// not-found page would otherwise be prerendered with scripts the policy refuses.
export const dynamic = "force-dynamic";

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 font-sans text-zinc-900 antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}

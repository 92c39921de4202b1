import { defineConfig } from "prisma/config";

// Prisma's CLI is used here only for `prisma generate`; migrations are applied by lib/db/migrate.ts
// because the native schema engine cannot be downloaded on these machines.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});

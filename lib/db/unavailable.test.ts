import net from "node:net";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/api/errors";
import { db } from "@/lib/db";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { isDatabaseUnavailable } from "./unavailable";

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe("a database that cannot be reached answers 503 with Retry-After, never 500", () => {
  it("recognises the failures of an unreachable server, through Prisma and through pg", async () => {
    const url = `postgresql://postgres:postgres@127.0.0.1:${await closedPort()}/nowhere`;
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, connectionTimeoutMillis: 2000 }) });
    const viaPrisma = await prisma.organization.count().catch((error: unknown) => error);
    const viaPg = await new pg.Pool({ connectionString: url, connectionTimeoutMillis: 2000 }).query("SELECT 1").catch((error: unknown) => error);
    for (const error of [viaPrisma, viaPg]) {
      expect(isDatabaseUnavailable(error)).toBe(true);
      const response = errorResponse(error);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect(await response.json()).toEqual({ error: expect.any(String), code: "SERVICE_UNAVAILABLE" });
    }
    await prisma.$disconnect();
  });

  it("recognises a connection the server ended (a restart), and nothing that is the request's fault", async () => {
    const victim = new pg.Client({ connectionString: process.env.DATABASE_URL });
    victim.on("error", () => undefined);
    await victim.connect();
    const [{ pid }] = (await victim.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows;
    await db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
    const ended = await victim.query("SELECT 1").catch((error: unknown) => error);
    expect(isDatabaseUnavailable(ended)).toBe(true);
    await victim.end().catch(() => undefined);

    const syntax = await db.$queryRawUnsafe("SELEC 1").catch((error: unknown) => error);
    const division = await db.$executeRawUnsafe("SELECT 1/0").catch((error: unknown) => error);
    for (const error of [syntax, division, new Error("boom"), null]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
      expect(errorResponse(error).status).toBe(500);
    }
  });
});

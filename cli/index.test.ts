import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { client, createTestOrg, expectError, randomId } from "@/lib/testing/api";

const run = promisify(execFile);
const tsx = path.resolve("node_modules/.bin/tsx");

/** Runs the command line as an operator would; the test database comes through DATABASE_URL. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(tsx, ["cli/index.ts", ...args], { env: process.env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout: string; stderr: string };
    return { code: typeof failed.code === "number" ? failed.code : -1, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The one JSON object a successful command prints. */
function output(result: { code: number; stdout: string; stderr: string }) {
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

const newAddress = () => `operator-${randomUUID()}@example.test`;

describe("operator command line", () => {
  it("org:create makes an organization, its owner and a working API key", async () => {
    const email = newAddress();
    const created = output(await cli("org:create", "--name", "Acme", "--email", email.toUpperCase(), "--password", "s3cret-password"));
    expect(Object.keys(created).sort()).toEqual(["api_key", "organization_id", "user_id"]);
    const organization = await db.organization.findUniqueOrThrow({ where: { id: created.organization_id } });
    expect(organization.name).toBe("Acme");
    const user = await db.user.findUniqueOrThrow({ where: { id: created.user_id } });
    expect(user.email).toBe(email);
    expect(await verifyPassword("s3cret-password", user.password_hash)).toBe(true);
    const membership = await db.membership.findUniqueOrThrow({
      where: { organization_id_user_id: { organization_id: created.organization_id, user_id: created.user_id } },
    });
    expect(membership.role).toBe("owner");
    const keys = await client(created.api_key).get("/v1/api-keys");
    expect(keys.status).toBe(200);
    expect(keys.body.data).toHaveLength(1);
    expect(keys.body.data[0]).toMatchObject({ organization_id: created.organization_id, created_by: created.user_id });
  });

  it("api-key:create issues a key acting as the named member", async () => {
    const org = await createTestOrg();
    const member = await org.addMember("member");
    const issued = output(await cli("api-key:create", "--organization", org.organizationId, "--email", member.email, "--name", "Deploys"));
    expect(Object.keys(issued)).toEqual(["api_key"]);
    const keys = await client(issued.api_key).get("/v1/api-keys");
    expect(keys.status).toBe(200);
    const mine = keys.body.data.find((k: { name: string }) => k.name === "Deploys");
    expect(mine).toMatchObject({ organization_id: org.organizationId, created_by: member.userId });
    // It carries the member's role: a member may not list invitations.
    expectError(await client(issued.api_key).get("/v1/invitations"), 403, "FORBIDDEN");
  });

  it("domain:create adds a pending or a verified domain", async () => {
    const org = await createTestOrg();
    const pending = output(await cli("domain:create", "--organization", org.organizationId, "--name", "Mail.Example.test"));
    expect(pending.status).toBe("pending");
    const row = await db.domain.findUniqueOrThrow({ where: { id: pending.domain_id } });
    expect(row).toMatchObject({ organization_id: org.organizationId, name: "mail.example.test", status: "pending", verified_at: null });
    expect(row.verification_token.length).toBeGreaterThanOrEqual(32);
    // Like a domain added through the API: a DKIM key, and the records to publish.
    expect(row.dkim_public_key).toBeTruthy();
    expect(row.dkim_private_key_encrypted).toBeTruthy();
    const records = (await org.owner.api.get(`/v1/domains/${pending.domain_id}`)).body.records as { purpose: string }[];
    expect(records.map((r) => r.purpose)).toEqual(["ownership", "dkim", "return_path", "return_path_spf", "dmarc"]);
    const idn = output(await cli("domain:create", "--organization", org.organizationId, "--name", "Bücher.example.test"));
    expect((await db.domain.findUniqueOrThrow({ where: { id: idn.domain_id } })).name).toBe("xn--bcher-kva.example.test");

    const verified = output(await cli("domain:create", "--organization", org.organizationId, "--name", "example.test", "--verified"));
    expect(verified.status).toBe("verified");
    const verifiedRow = await db.domain.findUniqueOrThrow({ where: { id: verified.domain_id } });
    expect(verifiedRow.status).toBe("verified");
    expect(verifiedRow.verified_at).toBeInstanceOf(Date);
    expect(verifiedRow.verification_token).not.toBe(row.verification_token);
    // The operator vouches for every record: the domain signs and uses its return path at once.
    expect(verifiedRow.dkim_verified_at).toBeInstanceOf(Date);
    expect(verifiedRow.return_path_verified_at).toBeInstanceOf(Date);
    const vouched = (await org.owner.api.get(`/v1/domains/${verified.domain_id}`)).body;
    expect(vouched.records.map((r: { status: string }) => r.status)).toEqual(["verified", "verified", "verified", "verified", "verified"]);
    expect(vouched.dkim_signing).toBe(true);
    // Three tsx processes, each compiling the command line afresh: at a load of 19 on two cores they
    // took the whole default minute.
  }, 180_000);

  // Thirteen runs of the command line, each a tsx process compiling it afresh: on a loaded machine
  // that alone passed the default minute, so this test gets three.
  it("fails with a message on stderr, nothing on stdout and a non-zero exit", async () => {
    const org = await createTestOrg();
    const outsider = await createTestOrg();
    const cases: [string[], RegExp][] = [
      [[], /usage/],
      [["org:nope"], /unknown command org:nope/],
      [["org:create", "--email", newAddress()], /--name is required/],
      [["org:create", "--name", "X", "--email", "not-an-email"], /--email must be an email address/],
      [["org:create", "--name", "X", "--email", newAddress(), "--password", "short"], /--password must be at least 8 characters/],
      [["org:create", "--name", "X", "--email", newAddress(), "--bogus", "1"], /bogus/],
      [["api-key:create", "--organization", "nope", "--email", org.owner.email], /--organization must be a UUID/],
      [["api-key:create", "--organization", randomId(), "--email", org.owner.email], /organization .* not found/],
      [["api-key:create", "--organization", org.organizationId, "--email", outsider.owner.email], /is not a member of organization/],
      [["domain:create", "--organization", randomId(), "--name", "example.test"], /not found/],
      [["domain:create", "--organization", org.organizationId, "--name", "not a domain"], /--name must be a domain name/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(...args);
      expect(result.code, args.join(" ")).not.toBe(0);
      expect(result.stdout, args.join(" ")).toBe("");
      expect(result.stderr, args.join(" ")).toMatch(message);
    }
    output(await cli("domain:create", "--organization", org.organizationId, "--name", "dup.example.test"));
    const duplicate = await cli("domain:create", "--organization", org.organizationId, "--name", "DUP.example.test");
    expect(duplicate.code).not.toBe(0);
    expect(duplicate.stderr).toMatch(/already a domain/);
    expect(await db.domain.count({ where: { organization_id: org.organizationId, name: "dup.example.test" } })).toBe(1);
    expect(await db.apiKey.count({ where: { organization_id: org.organizationId, user_id: outsider.owner.userId } })).toBe(0);
  }, 180_000);
});

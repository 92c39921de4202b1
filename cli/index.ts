// The operator command line: `npm run cli -- <command> [options]`. One JSON object on stdout and
// exit 0, or a message on stderr and a non-zero exit. It migrates the database first, so it works
// before the server has ever started, and with or without a running server.
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { z } from "zod";
import { AppError } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import { ensureDatabase } from "@/lib/db/ensure-database";
import { StartupError } from "@/lib/db/startup-error";
import { password as passwordRule } from "@/lib/schemas/accounts";
import { emailAddress, id, limits, normalizeEmail, requiredText } from "@/lib/schemas/common";
import { domainName } from "@/lib/schemas/domains";
import { createOrganizationWithOwner } from "@/lib/services/accounts";
import { issueApiKey } from "@/lib/services/api-keys";
import { addDomain } from "@/lib/services/domains";

class CliError extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;
/** `parse` checks the arguments before the database is touched; `run` does the work. */
type Command<I = unknown> = { usage: string; options: Options; parse: (values: Values) => I; run: (input: I) => Promise<Record<string, unknown>> };
const command = <I>(definition: Command<I>) => definition as Command;

function option<S extends z.ZodType>(values: Values, name: string, schema: S): z.output<S> {
  const result = schema.safeParse(values[name]);
  if (!result.success) {
    const message = values[name] === undefined ? "is required" : result.error.issues[0].message;
    throw new CliError(`--${name} ${message}`);
  }
  return result.data;
}

async function findOrganization(organizationId: string) {
  const organization = await db.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
  if (!organization) throw new CliError(`organization ${organizationId} not found`);
  return organization;
}

const commands: Record<string, Command> = {
  "org:create": command({
    usage: "org:create --name <name> --email <owner email> [--password <password>]",
    options: { name: { type: "string" }, email: { type: "string" }, password: { type: "string" } },
    parse: (values) => ({
      name: option(values, "name", requiredText(limits.name)),
      email: normalizeEmail(option(values, "email", emailAddress)),
      password: values.password === undefined ? undefined : option(values, "password", passwordRule),
    }),
    run: async ({ name, email, password }) => {
      if (password !== undefined && (await db.user.findUnique({ where: { email }, select: { id: true } }))) {
        process.stderr.write(`note: ${email} already has an account; its password is unchanged\n`);
      }
      const { organization, user } = await createOrganizationWithOwner({ name, email, password });
      const key = await issueApiKey(organization.id, user.id, "CLI");
      return { organization_id: organization.id, user_id: user.id, api_key: key.token };
    },
  }),
  "api-key:create": command({
    usage: "api-key:create --organization <id> --email <member email> [--name <name>]",
    options: { organization: { type: "string" }, email: { type: "string" }, name: { type: "string" } },
    parse: (values) => ({
      organizationId: option(values, "organization", id),
      email: normalizeEmail(option(values, "email", emailAddress)),
      name: values.name === undefined ? "CLI" : option(values, "name", requiredText(limits.name)),
    }),
    run: async ({ organizationId, email, name }) => {
      const organization = await findOrganization(organizationId);
      const membership = await db.membership.findFirst({ where: { organization_id: organization.id, user: { email } }, select: { user_id: true } });
      if (!membership) throw new CliError(`${email} is not a member of organization ${organization.id}`);
      const key = await issueApiKey(organization.id, membership.user_id, name);
      return { api_key: key.token };
    },
  }),
  "domain:create": command({
    usage: "domain:create --organization <id> --name <domain> [--verified]",
    options: { organization: { type: "string" }, name: { type: "string" }, verified: { type: "boolean" } },
    parse: (values) => ({
      organizationId: option(values, "organization", id),
      name: option(values, "name", domainName),
      verified: values.verified === true,
    }),
    run: async ({ organizationId, name, verified }) => {
      const organization = await findOrganization(organizationId);
      // The same path as POST /v1/domains, so the domain gets its DKIM key and DNS records too.
      try {
        const domain = await addDomain(organization.id, name, { verified });
        return { domain_id: domain.id, status: domain.status };
      } catch (error) {
        if (error instanceof AppError) throw new CliError(error.message);
        throw error;
      }
    },
  }),
};

const usage = () =>
  `usage: npm run cli -- <command>\n${Object.values(commands)
    .map((c) => `  ${c.usage}`)
    .join("\n")}`;

async function main(argv: string[]): Promise<Record<string, unknown>> {
  const [name, ...rest] = argv;
  const chosen = name === undefined ? undefined : commands[name];
  if (!chosen) throw new CliError(name === undefined ? usage() : `unknown command ${name}\n${usage()}`);
  let values: Values;
  try {
    ({ values } = parseArgs({ args: rest, options: chosen.options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new CliError(`${(error as Error).message}\nusage: npm run cli -- ${chosen.usage}`);
  }
  const input = chosen.parse(values);
  await ensureDatabase();
  return chosen.run(input);
}

try {
  const result = await main(process.argv.slice(2));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} catch (error) {
  process.stderr.write(
    `error: ${error instanceof CliError || error instanceof StartupError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
} finally {
  await db.$disconnect();
}

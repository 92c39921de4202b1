import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { WEB_SERVER_NODE_FLAGS } from "./web-server-flags";

// The image and the compose file cannot be built or run on these machines (no container runtime):
// what can drift from the code is checked here instead — that the compose file parses, that every
// process it starts is a script of package.json whose program exists, and that the Dockerfile
// builds with CI's own commands, as a user other than root.
const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const scripts: Record<string, string> = JSON.parse(read("package.json")).scripts;

type Service = { image?: string; build?: unknown; command?: string[]; environment?: Record<string, string | null>; depends_on?: Record<string, unknown> };
// Merge keys (`<<: *app`) are YAML 1.1, which Compose reads.
const compose = parse(read("compose.yaml"), { merge: true }) as { services: Record<string, Service> };
const appServices = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

/** The file a script runs (`tsx worker/index.ts` → worker/index.ts), when it names one. */
const programOf = (script: string) => script.split(/\s+/).find((word) => /\.(ts|mjs|js)$/.test(word));

describe("compose.yaml", () => {
  it("starts the image's processes and PostgreSQL", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["inbound", "migrate", "postgres", "submission", "web", "worker"]);
    expect(compose.services.postgres.image).toMatch(/^postgres:/);
    expect(appServices.map(([name]) => name).sort()).toEqual(["inbound", "migrate", "submission", "web", "worker"]);
  });

  it("runs each of them as an npm script of package.json whose program exists", () => {
    for (const [name, service] of appServices) {
      const [npm, run, script, ...rest] = service.command ?? [];
      expect([npm, run, rest], name).toEqual(["npm", "run", []]);
      expect(scripts[script], `${name}: npm run ${script}`).toBeDefined();
      const program = programOf(scripts[script]);
      if (program) expect(existsSync(path.join(root, program)), `${name}: ${program}`).toBe(true);
    }
  });

  it("starts the web server with the flags npm start and the benchmarks give it", () => {
    const web = scripts[compose.services.web.command?.[2] ?? ""];
    for (const flag of WEB_SERVER_NODE_FLAGS) expect(web.split(/\s+/)).toContain(flag);
    expect(web).toMatch(/node_modules\/next\/dist\/bin\/next start$/);
  });

  it("gives every process the same database and secret, and starts them after the migration", () => {
    for (const [name, service] of appServices) {
      expect(service.environment?.DATABASE_URL, name).toMatch(/^postgresql:\/\/[^@]+@postgres:5432\//);
      expect(service.environment?.AUTH_SECRET, name).toMatch(/^\$\{AUTH_SECRET:\?/);
      expect(Object.keys(service.depends_on ?? {}), name).toEqual([name === "migrate" ? "postgres" : "migrate"]);
    }
  });
});

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile");
  const lines = dockerfile.split("\n").filter((line) => line.trim() && !line.trim().startsWith("#"));
  const stages = lines.filter((line) => line.startsWith("FROM "));

  it("builds in one stage with the commands CI runs, and runs in another as a user other than root", () => {
    const ci = read(".ci/run");
    for (const command of ["npm ci --no-audit --no-fund", "npm run build"]) {
      expect(ci).toContain(command);
      expect(
        lines.some((line) => line.startsWith("RUN ") && line.includes(command)),
        command,
      ).toBe(true);
    }
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = lines.slice(lines.lastIndexOf(stages.at(-1)!));
    expect(runtime.filter((line) => line.startsWith("USER ")).map((line) => line.slice(5).trim())).toEqual(["node"]);
  });

  it("copies files that exist, and its default command is a script of package.json", () => {
    for (const line of lines.filter((l) => l.startsWith("COPY ") && !l.includes("--from="))) {
      const sources = line.slice(5).trim().split(/\s+/).slice(0, -1);
      for (const source of sources) expect(existsSync(path.join(root, source)), line).toBe(true);
    }
    const cmd = JSON.parse(lines.find((line) => line.startsWith("CMD "))!.slice(4)) as string[];
    expect(cmd.slice(0, 2)).toEqual(["npm", "run"]);
    expect(scripts[cmd[2]]).toBeDefined();
  });

  it("leaves the checkout's modules, builds, databases and secrets out of the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((line) => line.trim());
    for (const entry of ["node_modules", ".next", ".data", ".env*", "lib/generated"]) expect(ignored, entry).toContain(entry);
  });
});

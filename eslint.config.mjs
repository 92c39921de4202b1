import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// The rooms of the codebase (ARCHITECTURE.md). Code that ships to the browser must not reach the
// server's rooms: importing the database client, a service or the sending engine into a component
// would bundle server code (and its secrets' names) for the browser, or fail at run time far from
// the mistake. Schemas (zod), contracts, templating and the generated enums are pure and shared by
// both rooms, so they keep to the browser's rules too.
const browserPatterns = [
  { group: ["@/lib/db", "@/lib/db/**", "@/lib/db.*"], message: "The database is the server's: call the API (lib/client) instead." },
  { group: ["@/lib/services/**"], message: "Services run on the server: call the API (lib/client) instead." },
  { group: ["@/lib/api/**"], message: "lib/api is the HTTP server; what both sides share is in lib/contracts and lib/schemas." },
  {
    group: ["@/lib/sending/**", "@/lib/replies/**", "@/lib/feedback/**", "@/lib/webhooks/**", "@/lib/sequences/**", "@/lib/events/**", "@/lib/automations/**"],
    message: "The engine runs in the worker, never in the browser.",
  },
  { group: ["@/lib/env", "@/lib/env.*"], message: "Settings are the server's (and hold secrets); pass what a screen needs through the API." },
  { regex: "^@/lib/auth/(?!sign-in-errors$)", message: "Authentication runs on the server; the browser uses next-auth/react and lib/client/session." },
  { regex: "^@/lib/generated/prisma(?!/enums$)", message: "Only the generated enums are browser-safe; the Prisma client is the server's." },
];

const browserRoom = {
  files: ["components/**/*.{ts,tsx}", "lib/client/**/*.{ts,tsx}"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          ...browserPatterns,
          // A contract holds its zod schemas: importing one as a value bundles zod (~47 KB gzipped)
          // into the page. The dashboard names a route (`apiCall("GET /v1/…")`) and imports types.
          {
            group: ["@/lib/contracts", "@/lib/contracts/**"],
            allowTypeImports: true,
            message: "Call apiCall with the route string; import contracts as types only.",
          },
        ],
      },
    ],
  },
};

// Pure modules both rooms import keep to the browser's rules too.
const sharedRoom = {
  files: ["lib/contracts/**/*.ts", "lib/schemas/**/*.ts", "lib/domain/**/*.ts"],
  rules: { "no-restricted-imports": ["error", { patterns: browserPatterns }] },
};

// The audience (lib/audience: the filter language compiled to SQL, segment membership, reachable
// contacts, typed properties) is what the services and the sending engine both ask who is in. It
// imports neither, so either can depend on it and a rule about contacts has one owner.
const audienceRoom = {
  files: ["lib/audience/**/*.ts"],
  // Its tests drive the engine and the API to show the engine asking it.
  ignores: ["lib/audience/**/*.test.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["@/lib/services/**", "@/lib/api/**"], message: "The audience is imported by services, not the other way round." },
          {
            group: [
              "@/lib/sending/**",
              "@/lib/sequences/**",
              "@/lib/replies/**",
              "@/lib/feedback/**",
              "@/lib/webhooks/**",
              "@/lib/tracking/**",
              "@/lib/events/**",
            ],
            message: "The engine asks the audience who is in; the audience does not import the engine (it reads the events table, not lib/events).",
          },
        ],
      },
    ],
  },
};

// Events (lib/events: every fact recorded once with its announcement, the outbox and its dispatcher)
// sit below everything that records or consumes them: services, the engine and webhooks import
// lib/events, never the other way round, so a fact has one recorder and the outbox one owner. The
// one exception is the list of consumers (consumers.ts), which names each consumer's module.
const engineAndConsumers = ["@/lib/sending/**", "@/lib/sequences/**", "@/lib/replies/**", "@/lib/feedback/**", "@/lib/tracking/**"];
const eventsRoom = {
  files: ["lib/events/**/*.ts"],
  ignores: ["lib/events/**/*.test.ts", "lib/events/consumers.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["@/lib/services/**", "@/lib/api/**"], message: "Services record through lib/events; lib/events imports none of them." },
          {
            group: [...engineAndConsumers, "@/lib/webhooks/**", "@/lib/automations/**", "@/lib/audience/**"],
            message: "Recorders and consumers import lib/events, not the other way round; a consumer is listed in lib/events/consumers.ts alone.",
          },
        ],
      },
    ],
  },
};
// The list of consumers imports their modules (webhooks, automations), and nothing else of the server's rooms.
const eventConsumersList = {
  files: ["lib/events/consumers.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["@/lib/services/**", "@/lib/api/**", ...engineAndConsumers], message: "consumers.ts lists consumers (EventConsumer modules) only." },
        ],
      },
    ],
  },
};
// The outbox is the worker's: only its dispatcher loop (worker/) and the tests' helper claim and end
// announcements. Everything else records (record.ts, sql.ts) or consumes (consumer.ts).
const eventsDispatchPattern = {
  group: ["@/lib/events/dispatch", "@/lib/events/outbox", "@/lib/events/consumers"],
  message: "Announcements are dispatched by the worker's events:dispatch loop alone; record with lib/events/record or lib/events/sql.",
};

// The sending engine (lib/sending, lib/replies, lib/sequences, lib/feedback, lib/tracking) sits below
// the services: services queue, pause and fan out through it, and it never imports them, so a rule
// they share (proof of sender, an inbox's health, an address's domain) has one owner in a room both
// import (lib/senders, lib/inboxes, lib/domain, lib/db), not a copy on each side or a cycle. The
// worker (worker/) is not the engine: it wires the engine and the services' periodic jobs together.
// The engine's tests may use services as fixtures (creating a domain, sending through the API).
const engineFiles = ["lib/sending/**", "lib/replies/**", "lib/sequences/**", "lib/feedback/**", "lib/tracking/**"];
const engineRoom = {
  files: engineFiles.map((folder) => `${folder}/*.{ts,tsx}`),
  ignores: ["**/*.test.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["@/lib/services/**"], message: "The engine does not import services: move the rule both need to a room below them (ARCHITECTURE.md)." },
          eventsDispatchPattern,
        ],
      },
    ],
  },
};
// The rooms of rules both services and the engine apply (proof of sender, an inbox's health) import neither.
const sharedRuleFiles = ["lib/senders/**", "lib/inboxes/**"];
const sharedRulesRoom = {
  files: sharedRuleFiles.map((folder) => `${folder}/*.{ts,tsx}`),
  ignores: ["**/*.test.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["@/lib/services/**", "@/lib/api/**"], message: "Services import this room's rule; it imports no service." },
          { group: engineFiles.map((folder) => `@/${folder}`), message: "The engine imports this room's rule; it imports nothing of the engine." },
          eventsDispatchPattern,
        ],
      },
    ],
  },
};

const eventsDispatchUsers = {
  files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "cli/**/*.ts", "scripts/**/*.ts"],
  ignores: [
    "lib/events/**",
    "lib/testing/**",
    "**/*.test.ts",
    // Rooms with rules of their own (which refuse lib/events whole, keep to the browser's, or refuse the dispatcher too).
    "lib/audience/**",
    "lib/automations/**",
    "lib/client/**",
    "lib/contracts/**",
    "lib/schemas/**",
    "lib/domain/**",
    ...engineFiles,
    ...sharedRuleFiles,
  ],
  rules: { "no-restricted-imports": ["error", { patterns: [eventsDispatchPattern] }] },
};

// The automations engine (lib/automations: runs, steps, triggers) works in the worker beside the
// sending engine. It asks lib/audience who is in and records and consumes facts through lib/events;
// it imports no service and not the HTTP layer, so the services (the API) depend on it and never the
// reverse. Its consumer is listed in lib/events/consumers.ts; the outbox stays the worker's.
const automationsRoom = {
  files: ["lib/automations/**/*.ts"],
  ignores: ["lib/automations/**/*.test.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["@/lib/services/**", "@/lib/api/**"], message: "The engine does not import services; move what both need to a room both import." },
          eventsDispatchPattern,
        ],
      },
    ],
  },
};

// One place reads the environment (lib/env.ts): it validates every setting once, gives defaults and
// documents them, so a typo in a variable's name is a start-up error, not an undefined at run time.
// Tests, benchmarks and scripts set the environment of the processes they start, so they may.
const environmentRoom = {
  files: ["**/*.{ts,tsx,mjs}"],
  ignores: [
    "lib/env.ts",
    "**/*.test.ts",
    "lib/testing/**",
    "e2e/**",
    "faults/**",
    "bench/**",
    "scripts/**",
    "playwright.config.ts",
    // Next.js tells the runtime through NEXT_RUNTIME before any module of ours may be imported.
    "instrumentation.ts",
  ],
  rules: {
    "no-restricted-properties": [
      "error",
      { object: "process", property: "env", message: "Read settings from lib/env.ts (the one place that validates them)." },
    ],
  },
};

// Every connection to PostgreSQL is opened in lib/db (connections.ts, pool.ts, and what migrations and
// the embedded database need; a Prisma adapter elsewhere runs on a pool made there): how many a process holds, and with which timeouts, is read in one place.
// Tests, benchmarks and scripts make the connections of their own harness.
const connectionsRoom = {
  files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "worker/**/*.ts", "cli/**/*.ts"],
  ignores: ["lib/db/**", "lib/db.ts", "lib/testing/**", "**/*.test.ts"],
  rules: {
    "no-restricted-syntax": [
      "error",
      {
        selector:
          "NewExpression[callee.property.name=/^(Pool|Client)$/], NewExpression[callee.name=/^(Pool|Client)$/], NewExpression[callee.name='PrismaPg']:not([arguments.0.callee.name='createPool'])",
        message: "Open database connections in lib/db (createPool, createListenClient in lib/db/connections.ts).",
      },
    ],
  },
};

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  browserRoom,
  sharedRoom,
  audienceRoom,
  eventsRoom,
  eventConsumersList,
  eventsDispatchUsers,
  engineRoom,
  sharedRulesRoom,
  automationsRoom,
  environmentRoom,
  connectionsRoom,
  { ignores: [".next/**", "lib/generated/**", "sdk/src/generated/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
];
export default config;

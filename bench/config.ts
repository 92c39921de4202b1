// Kept apart from the application's modules: index.ts reads these before lib/env.ts runs.

/** Where one run lives. `--slot n` moves all of it, so two runs (two checkouts, say) do not meet. */
export type BenchPlace = { dataDir: string; pgPort: number; port: number; database: string };

export function benchPlace(slot: number): BenchPlace {
  return {
    dataDir: slot === 0 ? ".data/bench" : `.data/bench-${slot}`,
    pgPort: 54380 + slot,
    port: 3500 + slot,
    database: slot === 0 ? "mailplatform_bench" : `mailplatform_bench_${slot}`,
  };
}

/** A fresh database of its own: on DATABASE_URL's server when given, else on the embedded cluster. */
export function benchDatabaseUrl(place: BenchPlace, adminUrl: string | undefined): string {
  if (!adminUrl) return `postgresql://postgres:postgres@127.0.0.1:${place.pgPort}/${place.database}`;
  const url = new URL(adminUrl);
  url.pathname = `/${place.database}`;
  return url.toString();
}

/** Sizes of the full run; --quick divides the table sizes by 20 (request sizes stay what the scenario names). */
export type Sizes = {
  /** Contacts imported, and contacts of the organization the lists and check-emails run against. */
  contacts: number;
  /** Rows per CSV file: a million rows are over the 50 MB file limit, so they go in files of this many. */
  importFileRows: number;
  importRepeats: number;
  bulkBatch: number;
  bulkBatches: number;
  checkBatch: number;
  latencySamples: number;
  emails: number;
  emailPages: number;
  emailPageSize: number;
  emailWalks: number;
  loadSeconds: number;
  loadRounds: number;
  connections: number;
  recipients: number;
  sendRepeats: number;
  /** Emails timed of the broadcast sent right after the import (import-then-send), before it is cancelled. */
  sendAfterImport: number;
  /** Lists imported and sent at once (each then sent again after ANALYZE): one pair is one sample of each side. */
  importThenSendRepeats: number;
  smtpConnections: number;
  /** Recipients of each broadcast sent through a relay answering in 50 ms (slow-relay). */
  slowRelayRecipients: number;
  /** Recipients of each broadcast the scale-out scenario sends with one, two and three workers. */
  scaleOutRecipients: number;
  /** Answered threads of the unified inbox's organization (thread-inbox), beside as many unanswered. */
  threads: number;
  /** Delivery reports sent to the inbound listener per run, and runs. */
  reports: number;
  intakeRepeats: number;
};

export const FULL: Sizes = {
  contacts: 1_000_000,
  importFileRows: 500_000,
  importRepeats: 3,
  bulkBatch: 10_000,
  bulkBatches: 20,
  checkBatch: 10_000,
  latencySamples: 21,
  emails: 1_000_000,
  emailPages: 50,
  emailPageSize: 100,
  emailWalks: 3,
  // Many short alternating rounds: a noisy neighbour then slows both sides alike.
  loadSeconds: 3,
  loadRounds: 10,
  connections: 16,
  recipients: 100_000,
  sendRepeats: 3,
  sendAfterImport: 20_000,
  importThenSendRepeats: 2,
  // What lib/sending/transports.ts opens to one SMTP server (MAX_CONNECTIONS).
  smtpConnections: 5,
  slowRelayRecipients: 10_000,
  // One worker sends about 25 a second through a relay 50 ms away: two minutes.
  scaleOutRecipients: 3_000,
  reports: 20_000,
  intakeRepeats: 3,
  threads: 100_000,
};

export const QUICK: Sizes = {
  ...FULL,
  contacts: FULL.contacts / 20,
  importFileRows: FULL.importFileRows / 20,
  bulkBatches: 3,
  latencySamples: 11,
  emails: FULL.emails / 20,
  loadSeconds: 1.5,
  loadRounds: 6,
  recipients: FULL.recipients / 20,
  sendRepeats: 2,
  sendAfterImport: 5_000,
  slowRelayRecipients: 4_000,
  scaleOutRecipients: 1_000,
  reports: 2_000,
  intakeRepeats: 2,
  threads: FULL.threads / 20,
};

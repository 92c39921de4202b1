import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rawArf, rawDsn } from "@/lib/testing/reports";
import { arfOutcome, dsnOutcome, fieldGroups, parseReport } from "./parse-report";

describe("report parsing", () => {
  it("reads a bounce: action, status, diagnostic, final recipient and the original's Message-ID", async () => {
    const report = await parseReport(
      rawDsn({
        to: "b+x@bounces.acme.test",
        action: "failed",
        status: "5.1.1",
        diagnostic: "550 5.1.1 <gone@example.net>: Recipient address rejected: User unknown",
        finalRecipient: "Gone@Example.net",
        originalMessageId: "<orig-1@acme.test>",
        envelopeId: "env-1",
      }),
    );
    expect(report).toEqual({
      kind: "dsn",
      envelopeId: "env-1",
      originalMessageId: "<orig-1@acme.test>",
      recipients: [
        {
          action: "failed",
          status: "5.1.1",
          diagnostic: "smtp; 550 5.1.1 <gone@example.net>: Recipient address rejected: User unknown",
          finalRecipient: "gone@example.net",
          originalRecipient: "gone@example.net",
        },
      ],
    });
    expect(dsnOutcome(report!.kind === "dsn" ? report!.recipients[0] : (undefined as never))).toBe("hard_bounce");
  });

  it("finds the original headers in message/rfc822 too, and unfolds continued fields", async () => {
    const raw = rawDsn({
      to: "x@y.z",
      action: "delayed",
      finalRecipient: "slow@example.net",
      originalMessageId: "<orig-2@acme.test>",
      original: "message/rfc822",
      diagnostic: "451 4.2.2 Mailbox full,\r\n  try again later",
    });
    const report = await parseReport(raw);
    expect(report).toMatchObject({
      kind: "dsn",
      originalMessageId: "<orig-2@acme.test>",
      recipients: [{ action: "delayed", status: "4.4.7", diagnostic: "smtp; 451 4.2.2 Mailbox full, try again later" }],
    });
  });

  it("reads a complaint (ARF) and its feedback type", async () => {
    expect(await parseReport(rawArf({ to: "b+x@bounces.acme.test", recipient: "angry@example.net", originalMessageId: "<orig-3@acme.test>" }))).toEqual({
      kind: "arf",
      feedbackType: "abuse",
      originalMessageId: "<orig-3@acme.test>",
      originalRecipient: "angry@example.net",
    });
    expect(arfOutcome("abuse")).toBe("complaint");
    expect(arfOutcome("not-spam")).toBeNull();
    expect(arfOutcome("auth-failure")).toBeNull();
  });

  it("sorts outcomes: 5.x.x hard, 4.x.x and delayed soft, delivered, relayed nothing", () => {
    const r = (action: string, status: string | null, diagnostic: string | null = null) => ({
      action,
      status,
      diagnostic,
      finalRecipient: "a@b.c",
      originalRecipient: null,
    });
    expect(dsnOutcome(r("failed", "5.2.1"))).toBe("hard_bounce");
    expect(dsnOutcome(r("failed", "4.2.2"))).toBe("soft_bounce");
    expect(dsnOutcome(r("failed", null, "smtp; 452 mailbox full"))).toBe("soft_bounce");
    expect(dsnOutcome(r("failed", null, "smtp; 550 no"))).toBe("hard_bounce");
    expect(dsnOutcome(r("delayed", "4.4.7"))).toBe("soft_bounce");
    expect(dsnOutcome(r("delivered", "2.0.0"))).toBe("delivered");
    expect(dsnOutcome(r("relayed", "2.0.0"))).toBeNull();
    expect(dsnOutcome(r("expanded", "2.0.0"))).toBeNull();
  });

  it("answers null for what is not a well-formed report", async () => {
    const plain = "From: a@b.c\r\nTo: d@e.f\r\nSubject: hi\r\n\r\nhello\r\n";
    expect(await parseReport(plain)).toBeNull();
    // A report without its report part, with the wrong boundary, or with no recipient fields.
    const dsn = rawDsn({ to: "x@y.z", action: "failed", finalRecipient: "a@b.c", boundary: "BOUND" });
    expect(await parseReport(dsn.replace("Content-Type: message/delivery-status", "Content-Type: text/plain"))).toBeNull();
    expect(await parseReport(dsn.replace('boundary="BOUND"', 'boundary="OTHER"'))).toBeNull();
    expect(await parseReport(dsn.replace(/Final-Recipient:.*\r\n/, "").replace(/Original-Recipient:.*\r\n/, ""))).toBeNull();
    expect(await parseReport(dsn.slice(0, dsn.indexOf("Action:")))).toBeNull();
    expect(await parseReport(Buffer.alloc(0))).toBeNull();
  });

  it("stays bounded on 10 MB of headers and a million recipient groups", async () => {
    const huge = `X-Padding: ${"a".repeat(10 * 1024 * 1024)}\r\n${rawDsn({ to: "x@y.z", action: "failed", finalRecipient: "a@b.c" })}`;
    await expect(parseReport(huge)).resolves.toBeNull();
    const groups = fieldGroups("Reporting-MTA: x\n\n" + "Final-Recipient: rfc822; a@b.c\nAction: failed\n\n".repeat(1_000_000));
    expect(groups.length).toBeLessThanOrEqual(102);
  });

  it("never throws, and reads only what it can stand behind, whatever is thrown at it (property)", async () => {
    const field = fc.stringMatching(/^[A-Za-z-]{1,20}$/);
    const value = fc.string({ maxLength: 200 });
    const lines = fc.array(
      fc.oneof(
        fc.tuple(field, value).map(([f, v]) => `${f}: ${v}`),
        value,
        fc.constant(""),
      ),
      { maxLength: 30 },
    );
    const dsnLike = fc.record({
      action: fc.oneof(fc.constantFrom("failed", "delayed", "delivered", "relayed", "expanded"), fc.string({ maxLength: 20 })),
      status: fc.oneof(fc.constantFrom("5.1.1", "4.2.2", "2.0.0", "9.9.9", ""), fc.string({ maxLength: 12 })),
      recipient: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 40 })),
      noise: lines,
      boundary: fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,40}$/),
      cut: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(dsnLike, async (input) => {
        const raw = rawDsn({
          to: "x@y.z",
          action: input.action as "failed",
          status: input.status,
          finalRecipient: input.recipient,
          boundary: input.boundary,
          originalMessageId: "<o@x>",
        });
        const mangled = raw.replace("Remote-MTA: dns; mx.example.net", input.noise.join("\r\n"));
        for (const candidate of [mangled, mangled.slice(0, input.cut % (mangled.length + 1))]) {
          const report = await parseReport(candidate);
          if (report === null) continue;
          expect(["dsn", "arf"]).toContain(report.kind);
          if (report.kind === "dsn") {
            expect(report.recipients.length).toBeGreaterThan(0);
            for (const r of report.recipients) {
              if (r.status !== null) expect(r.status).toMatch(/^[245]\.\d{1,3}\.\d{1,3}$/);
              expect(dsnOutcome(r) === null || ["delivered", "hard_bounce", "soft_bounce"].includes(dsnOutcome(r)!)).toBe(true);
            }
          }
        }
      }),
      { numRuns: 150 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 2000 }),
          fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.from(b)),
        ),
        async (garbage) => {
          const report = await parseReport(garbage);
          expect(report === null || typeof report.kind === "string").toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

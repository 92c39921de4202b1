import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestOrg } from "@/lib/testing/api";
import { trackOutgoing, type TrackingSources } from "./track-outgoing";

const HTML = '<html><body><a href="https://example.com/a">a</a></body></html>';

type Settings = { track_opens: boolean; track_clicks: boolean; utm: unknown };
const on: Settings = { track_opens: true, track_clicks: true, utm: null };

function draft(organizationId: string, fields: Partial<Settings & { from_email: string; broadcast_id: string; step_id: string }> = {}) {
  return {
    email: { id: randomUUID(), organization_id: organizationId, from_email: "news@own.example", broadcast_id: null, step_id: null, ...on, ...fields },
    rendered: { html: HTML as string | null, text: "Visit https://example.com/a" },
    tracked: { opens: false, clicks: false },
  };
}

async function organization(options: { tracking: boolean }) {
  const { organizationId } = await createTestOrg();
  await db.organization.update({ where: { id: organizationId }, data: { tracking_enabled: options.tracking } });
  const now = new Date();
  await db.domain.create({
    data: {
      organization_id: organizationId,
      name: "own.example",
      verification_token: "t",
      status: "verified",
      verified_at: now,
      tracking_subdomain: "go",
      tracking_verified_at: now,
    },
  });
  return organizationId;
}

describe("trackOutgoing", () => {
  it("follows the step's settings, else the broadcast's, else the email's own", async () => {
    const org = await organization({ tracking: true });
    const sources: TrackingSources = {
      broadcasts: new Map([["b", { track_opens: false, track_clicks: true, utm: { source: "broadcast" } }]]),
      steps: new Map([["s", { track_opens: true, track_clicks: false, utm: { source: "step" } }]]),
    };
    const step = draft(org, { broadcast_id: "b", step_id: "s" });
    const broadcast = draft(org, { broadcast_id: "b", track_clicks: false });
    const own = draft(org, { track_opens: false, utm: { medium: "api" } });
    await trackOutgoing([step, broadcast, own], sources);

    expect(step.rendered.html).toContain('href="https://example.com/a?utm_source=step"');
    expect(step.rendered.html).toContain('<img src="https://go.own.example/t/o/');
    expect(step.rendered.text).toBe("Visit https://example.com/a?utm_source=step");
    expect(broadcast.rendered.html).toMatch(/href="https:\/\/go\.own\.example\/t\/c\/[^"]+"/);
    expect(broadcast.rendered.html).not.toContain("/t/o/");
    expect(broadcast.rendered.text).toBe("Visit https://example.com/a?utm_source=broadcast");
    expect(own.rendered.html).toMatch(/href="https:\/\/go\.own\.example\/t\/c\/[^"]+"/);
    expect(own.rendered.html).not.toContain("/t/o/");
    expect(own.rendered.text).toBe("Visit https://example.com/a?utm_medium=api");
    // Noted on each email, for the report's denominators: what it carries.
    expect([step.tracked, broadcast.tracked, own.tracked]).toEqual([
      { opens: true, clicks: false },
      { opens: false, clicks: true },
      { opens: false, clicks: true },
    ]);
  });

  it("adds UTM parameters alone for an organization that does not track, and uses the platform's host for another domain", async () => {
    const quiet = await organization({ tracking: false });
    const untracked = draft(quiet, { utm: { campaign: "x" } });
    const tracking = await organization({ tracking: true });
    const elsewhere = draft(tracking, { from_email: "news@other.example" });
    const textOnly = { ...draft(tracking, { utm: { campaign: "t" } }), rendered: { html: null, text: "https://example.com/a" } };
    const noLinks = { ...draft(tracking), rendered: { html: "<p>No links here</p>", text: "No links here" } };
    await trackOutgoing([untracked, elsewhere, textOnly, noLinks], { broadcasts: new Map(), steps: new Map() });

    expect(untracked.rendered.html).toBe('<html><body><a href="https://example.com/a?utm_campaign=x">a</a></body></html>');
    expect(elsewhere.rendered.html).toMatch(new RegExp(`href="${env.appUrl}/t/c/[^"]+"`));
    expect(elsewhere.rendered.html).toContain(`<img src="${env.appUrl}/t/o/`);
    expect(textOnly.rendered).toEqual({ html: null, text: "https://example.com/a?utm_campaign=t" });
    // Nothing tracked without the organization's tracking or an HTML part; no click can be tracked without a link.
    expect([untracked.tracked, elsewhere.tracked, textOnly.tracked, noLinks.tracked]).toEqual([
      { opens: false, clicks: false },
      { opens: true, clicks: true },
      { opens: false, clicks: false },
      { opens: true, clicks: false },
    ]);
  });
});

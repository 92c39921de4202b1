import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/testing/api";
import { drain, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { handleOpen } from "@/lib/tracking/handlers";
import { decideDueAbTests, startBroadcast } from "./fan-out";
import { createSender } from "./sender";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const PERSON = new Request("http://localhost/", { headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0" } });
const pixelToken = (html: string) => new URL(html.match(/<img src="([^"]+\/t\/o\/[^"]+)"/)![1]).pathname.split("/").pop()!;

describe("an A/B broadcast of 1 000, through the API and an SMTP server", () => {
  // 1 000 emails through an SMTP server: generous for a loaded 2-core machine (19 s at load 15, over 60 at 18).
  it("sends 20 % split between the variants, the rest the one people opened more, and reports both", { timeout: 240_000 }, async () => {
    const org = await createTestOrg();
    const api = org.owner.api;
    const inbox = await sinkInbox(org.organizationId, sink, { daily_limit: 5000 });
    const emails = Array.from({ length: 1000 }, (_, i) => `reader${i}@ab-scenario.test`);
    expect((await api.post("/v1/contacts/bulk", { contacts: emails.map((email) => ({ email })) })).body).toMatchObject({ imported: 1000 });
    const segment = (await api.post("/v1/segments", { name: "Readers" })).body;
    expect((await api.post(`/v1/segments/${segment.id}/contacts`, { emails })).body).toEqual({ added: 1000 });
    const created = await api.post("/v1/broadcasts", {
      name: "Spring",
      subject: "Spring",
      inbox_id: inbox.id,
      html_content: "<html><body><p>Spring is here</p></body></html>",
      segment_id: segment.id,
      sending_speed: "instant",
      variants: [{ subject: "Spring A" }, { subject: "Spring B" }],
      ab_test: { test_percent: 20, metric: "unique_opens", wait_minutes: 240 },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await api.post(`/v1/broadcasts/${id}/send`)).status).toBe(200);
    await startBroadcast(id); // the start job
    const sender = createSender({ organizationId: org.organizationId });
    const received = () => sink.messages.filter((m) => m.envelopeTo[0]?.endsWith("@ab-scenario.test"));
    await drain(sender, org.organizationId);

    const test = received();
    expect(test).toHaveLength(200);
    const bySubject = Map.groupBy(test, (m) => m.parsed.subject);
    expect(bySubject.get("Spring A")).toHaveLength(100);
    expect(bySubject.get("Spring B")).toHaveLength(100);
    // People open 30 of B's emails and 12 of A's; Apple's proxy opens 50 more of A's, which do not count.
    for (const mail of bySubject.get("Spring B")!.slice(0, 30)) expect((await handleOpen(PERSON, pixelToken(mail.parsed.html as string))).status).toBe(200);
    for (const mail of bySubject.get("Spring A")!.slice(0, 12)) await handleOpen(PERSON, pixelToken(mail.parsed.html as string));
    const proxy = new Request("http://localhost/", { headers: { "user-agent": "Mozilla/5.0" } });
    for (const mail of bySubject.get("Spring A")!.slice(40, 90)) await handleOpen(proxy, pixelToken(mail.parsed.html as string));

    const during = (await api.get(`/v1/broadcasts/${id}/report`)).body;
    // The page's HTML has no link: no email could show a click.
    const tracked = { recipients: 100, open_tracked: 100, click_tracked: 0, unique_clicked: 0, click_rate: null, winner: false };
    expect(during.variants).toEqual([
      { index: 0, subject: "Spring A", ...tracked, unique_opened: 12, open_rate: 0.12 },
      { index: 1, subject: "Spring B", ...tracked, unique_opened: 30, open_rate: 0.3 },
    ]);

    // The winner is chosen four hours (wait_minutes) after the test share's last email went out, not before.
    const [{ last_sent }] = await db.$queryRaw<{ last_sent: Date }[]>`SELECT max(sent_at) AS last_sent FROM emails WHERE broadcast_id = ${id}::uuid`;
    const due = new Date(last_sent.getTime() + 240 * 60_000);
    expect(await decideDueAbTests({ now: new Date(due.getTime() - 60_000), organizationId: org.organizationId })).toBe(0);
    expect(await decideDueAbTests({ now: due, organizationId: org.organizationId })).toBe(1);
    await startBroadcast(id); // the job the decision queued
    await drain(sender, org.organizationId);
    sender.close();

    const all = received();
    expect(all).toHaveLength(1000);
    expect(new Set(all.map((m) => m.envelopeTo[0])).size).toBe(1000);
    const rest = all.slice(200);
    expect(new Set(rest.map((m) => m.parsed.subject))).toEqual(new Set(["Spring B"]));

    const after = (await api.get(`/v1/broadcasts/${id}/report`)).body;
    expect(after.totals).toMatchObject({ recipients: 1000, sent: 1000, unique_opened: 42, machine_opens: 50 });
    expect(after.variants.map((v: { winner: boolean; recipients: number }) => [v.recipients, v.winner])).toEqual([
      [100, false],
      [100, true],
    ]);
    expect((await api.get(`/v1/broadcasts/${id}`)).body).toMatchObject({ ab_winner_index: 1, total_recipients: 1000 });
  });
});

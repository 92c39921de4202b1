import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { startBroadcast } from "@/lib/sending/fan-out";
import { createSender } from "@/lib/sending/sender";
import { createTestOrg } from "@/lib/testing/api";
import { drain, seedSegment, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { handleClick, handleOpen } from "./handlers";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

/** Sends a one-recipient broadcast through the sink and answers what arrived and the email row. */
async function sendBroadcast(trackingEnabled: boolean) {
  const org = await createTestOrg();
  await db.organization.update({ where: { id: org.organizationId }, data: { tracking_enabled: trackingEnabled } });
  const inbox = await sinkInbox(org.organizationId, sink);
  const { segmentId, contacts } = await seedSegment(org.organizationId, [{ first_name: "Tess" }]);
  const created = await org.owner.api.post("/v1/broadcasts", {
    name: "Launch",
    subject: "News",
    inbox_id: inbox.id,
    html_content: '<html><body><p>Hi {{first_name}}</p><p><a href="https://example.com/launch?x=1&amp;y=2">Read more</a></p></body></html>',
    segment_id: segmentId,
    sending_speed: "instant",
  });
  await org.owner.api.post(`/v1/broadcasts/${created.body.id}/send`, {});
  expect(await startBroadcast(created.body.id)).toBe("started");
  const sender = createSender({ organizationId: org.organizationId });
  await drain(sender, org.organizationId);
  sender.close();
  const mail = sink.messages.find((m) => m.envelopeTo.includes(contacts[0].email))!;
  const row = await db.email.findFirstOrThrow({ where: { broadcast_id: created.body.id } });
  return { mail, row, broadcastId: created.body.id as string };
}

const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

describe("tracking in sent broadcasts", () => {
  it("sends the pixel and redirect links, which record the open and the click", async () => {
    const { mail, row, broadcastId } = await sendBroadcast(true);
    const html = mail.parsed.html as string;
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    const tracked = links.filter((href) => href.startsWith(`${env.appUrl}/t/c/`));
    expect(tracked).toHaveLength(1);
    expect(links).not.toContain("https://example.com/launch?x=1&amp;y=2");
    // The unsubscribe link is the service's own: not rewritten.
    expect(links.some((href) => href.startsWith(`${env.appUrl}/u/`))).toBe(true);
    const pixel = html.match(/<img src="([^"]+\/t\/o\/[^"]+)"[^>]*\/><\/body>/)![1];
    expect(row.html_content).toBe(html);
    // The text part keeps the real link.
    expect(mail.parsed.text).toContain("https://example.com/launch?x=1&y=2");

    const visit = new Request("http://localhost/", {
      headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0" },
    });
    expect((await handleOpen(visit, tokenOf(pixel))).status).toBe(200);
    const click = await handleClick(visit, tokenOf(tracked[0]));
    expect(click.status).toBe(302);
    expect(click.headers.get("location")).toBe("https://example.com/launch?x=1&y=2");

    const after = await db.email.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.opened_at).toBeInstanceOf(Date);
    expect(after.clicked_links).toEqual([
      { url: "https://example.com/launch?x=1&y=2", at: after.clicked_at!.toISOString(), user_agent: visit.headers.get("user-agent"), ip: null },
    ]);
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: broadcastId } })).toMatchObject({ opened_count: 1, clicked_count: 1 });
  });

  it("adds nothing for an organization that switched tracking off", async () => {
    const { mail, row } = await sendBroadcast(false);
    const html = mail.parsed.html as string;
    expect(html).toContain('href="https://example.com/launch?x=1&amp;y=2"');
    expect(html).not.toContain("/t/o/");
    expect(html).not.toContain("/t/c/");
    expect(row.html_content).toBe(html);
  });
});

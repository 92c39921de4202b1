import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startBroadcast } from "@/lib/sending/fan-out";
import { createSender } from "@/lib/sending/sender";
import { createTestOrg, expectError, type TestOrg } from "@/lib/testing/api";
import { drain, sinkInbox } from "@/lib/testing/sending-fixtures";
import { startSmtpSink, type SmtpSink } from "@/lib/testing/smtp-sink";
import { handleClick, handleOpen } from "@/lib/tracking/handlers";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.close());

const visitor = (userAgent: string) => new Request("http://localhost/", { headers: { "user-agent": userAgent } });
const PERSON = visitor("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0");
const APPLE_PROXY = visitor("Mozilla/5.0");
const tokenOf = (url: string) => new URL(url).pathname.split("/").pop()!;

describe("POST /v1/broadcasts/{id}/resend", () => {
  let org: TestOrg;
  let originalId: string;
  let segmentId: string;
  let address: (name: string) => string;
  const mailTo = (name: string) => sink.messages.find((m) => m.envelopeTo[0] === address(name) && m.parsed.subject === "The news")!;
  const open = async (name: string, who = PERSON) => {
    const html = mailTo(name).parsed.html as string;
    expect((await handleOpen(who, tokenOf(html.match(/<img src="([^"]+\/t\/o\/[^"]+)"/)![1]))).status).toBe(200);
  };
  const click = async (name: string) => {
    const html = mailTo(name).parsed.html as string;
    expect((await handleClick(PERSON, tokenOf(html.match(/href="([^"]+\/t\/c\/[^"]+)"/)![1]))).status).toBe(302);
  };
  const send = async (id: string) => {
    expect((await org.owner.api.post(`/v1/broadcasts/${id}/send`)).status).toBe(200);
    await startBroadcast(id);
    const sender = createSender({ organizationId: org.organizationId });
    await drain(sender, org.organizationId);
    sender.close();
  };

  beforeAll(async () => {
    org = await createTestOrg();
    const tag = randomUUID().slice(0, 6);
    address = (name: string) => `${name}-${tag}@resend.test`;
    const inbox = await sinkInbox(org.organizationId, sink);
    const names = ["opener", "clicker", "proxied", "late", "unsubscribed", "suppressed", "bounced", "quiet", "untracked"];
    await org.owner.api.post("/v1/contacts/bulk", { contacts: names.map((name) => ({ email: address(name), first_name: name })) });
    const segment = (await org.owner.api.post("/v1/segments", { name: "Readers" })).body;
    await org.owner.api.post(`/v1/segments/${segment.id}/contacts`, { emails: names.map(address) });
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "News",
      subject: "The news",
      inbox_id: inbox.id,
      html_content: '<html><body><p>Hi {{first_name}}</p><p><a href="https://example.com/more">More</a></p></body></html>',
      segment_id: segment.id,
      sending_speed: "instant",
      utm: { campaign: "news" },
    });
    originalId = created.body.id;
    segmentId = segment.id;
    sink.reject(address("bounced"), 550);
    await send(originalId);
    // Mail that carried no open pixel (as a text-only email): whether it was opened is unknown.
    await db.email.updateMany({ where: { broadcast_id: originalId, to_email: address("untracked") }, data: { opens_tracked: false } });
    // Someone joins the segment after it was sent: not a recipient, so not a non-opener either.
    await org.owner.api.post("/v1/contacts", { email: address("newcomer") });
    await org.owner.api.post(`/v1/segments/${segment.id}/contacts`, { emails: [address("newcomer")] });

    await open("opener");
    await open("clicker");
    await click("clicker");
    await open("proxied", APPLE_PROXY);
    const unsubscribed = await db.contact.findFirstOrThrow({ where: { organization_id: org.organizationId, email: address("unsubscribed") } });
    await org.owner.api.put(`/v1/contacts/${unsubscribed.id}`, { subscribed: false });
    await org.owner.api.post("/v1/suppressions", { emails: [address("suppressed")] });
  });

  const segmentEmails = async (segmentId: string) =>
    (await db.segmentContact.findMany({ where: { segment_id: segmentId }, include: { contact: true } })).map((m) => m.contact.email).sort();

  it("makes a draft for exactly the non-openers, and mails none who opened the original by the time it sends", async () => {
    const answer = await org.owner.api.post(`/v1/broadcasts/${originalId}/resend`, { audience: "non_openers", subject: "In case you missed it" });
    expect(answer.status).toBe(201);
    const resend = answer.body;
    expect(resend).toMatchObject({
      status: "draft",
      name: "News (resend to non-openers)",
      subject: "In case you missed it",
      resend_of_id: originalId,
      resend_audience: "non_openers",
      html_content: expect.stringContaining("Hi {{first_name}}"),
      track_opens: true,
      utm: { campaign: "news" },
      // Through the original's inbox at its speed: the fan-out writes its emails' pace (emails.paced) from it.
      inbox_id: (await db.broadcast.findUniqueOrThrow({ where: { id: originalId } })).inbox_id,
      sending_speed: "instant",
    });
    expect(resend.segment_id).not.toBeNull();
    // Apple's proxy fetching the pixel is not a person's open: that recipient is a non-opener. One whose email
    // could not show an open is not known to be one.
    expect(await segmentEmails(resend.segment_id)).toEqual(["late", "proxied", "quiet"].map(address).sort());
    expect((await org.owner.api.get(`/v1/segments/${resend.segment_id}`)).body).toMatchObject({ contacts_count: 3, filter: null });

    // Opened since the draft was made: left out when it goes.
    await open("late");
    await send(resend.id);
    const resent = sink.messages.filter((m) => m.parsed.subject === "In case you missed it").map((m) => m.envelopeTo[0]);
    expect(resent.sort()).toEqual(["proxied", "quiet"].map(address).sort());
    expect((await org.owner.api.get(`/v1/broadcasts/${resend.id}`)).body.total_recipients).toBe(2);
  });

  it("resends to non-clickers, with a name of the caller's", async () => {
    const answer = await org.owner.api.post(`/v1/broadcasts/${originalId}/resend`, { audience: "non_clickers", subject: "Have a look", name: "Second go" });
    expect(answer.body).toMatchObject({ name: "Second go", resend_audience: "non_clickers" });
    expect(await segmentEmails(answer.body.segment_id)).toEqual(["late", "opener", "proxied", "quiet", "untracked"].map(address).sort());
  });

  it("refuses non-openers of a broadcast whose opens were not tracked, rather than calling everyone one", async () => {
    const created = await org.owner.api.post("/v1/broadcasts", {
      name: "Untracked",
      subject: "Untracked news",
      from_email: mailTo("quiet").parsed.from!.value[0].address,
      inbox_id: (await db.broadcast.findUniqueOrThrow({ where: { id: originalId } })).inbox_id,
      html_content: '<html><body><p><a href="https://example.com/more">More</a></p></body></html>',
      segment_id: segmentId,
      sending_speed: "instant",
      track_opens: false,
    });
    await send(created.body.id);
    const refused = expectError(
      await org.owner.api.post(`/v1/broadcasts/${created.body.id}/resend`, { audience: "non_openers", subject: "Again" }),
      400,
      "VALIDATION_ERROR",
    );
    expect(refused.details).toEqual([{ path: "audience", message: "the original's opens were not tracked, so nobody can be told a non-opener" }]);
    const clickers = await org.owner.api.post(`/v1/broadcasts/${created.body.id}/resend`, { audience: "non_clickers", subject: "Again" });
    expect(clickers.status).toBe(201);
    // Its seven reachable recipients (the newcomer included, a member by then); nobody clicked.
    expect(await segmentEmails(clickers.body.segment_id)).toHaveLength(7);
  });

  it("refuses a broadcast that never started, a bad body, and another organization's broadcast", async () => {
    const draft = await org.owner.api.post("/v1/broadcasts", { name: "Draft", subject: "S", from_email: "news@acme.test" });
    expectError(await org.owner.api.post(`/v1/broadcasts/${draft.body.id}/resend`, { audience: "non_openers", subject: "S" }), 400, "BROADCAST_NOT_SENT");
    const bad = expectError(await org.owner.api.post(`/v1/broadcasts/${originalId}/resend`, { audience: "openers", subject: "" }), 400, "VALIDATION_ERROR");
    expect(bad.details!.map((d) => d.path).sort()).toEqual(["audience", "subject"]);
    const other = await createTestOrg();
    expectError(await other.owner.api.post(`/v1/broadcasts/${originalId}/resend`, { audience: "non_openers", subject: "S" }), 404, "NOT_FOUND");
  });
});

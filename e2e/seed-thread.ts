// Seeds a sent email, the contact's reply in the same thread, a saved draft reply and a few events
// for the organization of the user with the given email. No API receives email, so the e2e test
// writes these through the app's own Prisma client: `npx tsx e2e/seed-thread.ts <user email>`.
// Prints { email_id, reply_id, thread_id } as JSON.
import { db } from "@/lib/db";

async function main() {
  const userEmail = process.argv[2];
  if (!userEmail) throw new Error("usage: tsx e2e/seed-thread.ts <user email>");
  const user = await db.user.findFirstOrThrow({ where: { email: userEmail.toLowerCase() }, include: { memberships: true } });
  const organization_id = user.memberships[0].organization_id;
  const contact = await db.contact.create({ data: { organization_id, email: `lead-${Date.now()}@prospect.test`, first_name: "Grace", last_name: "Hopper" } });
  const sentAt = new Date(Date.now() - 3 * 60 * 60 * 1000);
  const thread = await db.thread.create({
    data: { organization_id, subject: "Quick question about your Q4 plans", contact_id: contact.id, last_message_at: new Date() },
  });
  const email = await db.email.create({
    data: {
      organization_id,
      thread_id: thread.id,
      contact_id: contact.id,
      message_id: `<seed-${thread.id}@acme.test>`,
      from_email: "ada@acme.test",
      from_name: "Ada Lovelace",
      to_email: contact.email,
      subject: "Quick question about your Q4 plans",
      // The script must never run: the dashboard shows email HTML in a sandboxed frame.
      html_content:
        '<html><body style="font-family:sans-serif;padding:24px"><h2>Hi Grace,</h2><p>Are you planning a Q4 campaign? We help teams send to 1M contacts without breaking a sweat.</p><p><a href="https://acme.test/demo">Book a demo</a></p><script>document.body.innerHTML = "hacked"; window.parent.postMessage("escaped", "*");</script></body></html>',
      text_content: "Hi Grace,\n\nAre you planning a Q4 campaign?\n\nAda",
      status: "delivered",
      headers: {
        "Message-ID": `<seed-${thread.id}@acme.test>`,
        From: "Ada Lovelace <ada@acme.test>",
        To: contact.email,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
      sent_at: sentAt,
      delivered_at: new Date(sentAt.getTime() + 4_000),
      opened_at: new Date(sentAt.getTime() + 40 * 60_000),
      clicked_at: new Date(sentAt.getTime() + 42 * 60_000),
      created_at: sentAt,
    },
  });
  const at = (ms: number) => new Date(sentAt.getTime() + ms);
  const about = { organization_id, email_id: email.id, contact_id: contact.id };
  await db.event.createMany({
    data: [
      { ...about, name: "email.sent", source: "sending", occurred_at: sentAt },
      {
        ...about,
        name: "email.delivered",
        source: "feedback",
        occurred_at: at(4_000),
        properties: { delivery: { status: "2.0.0", message: null, source: "smtp" } },
      },
      {
        ...about,
        name: "email.opened",
        source: "tracking",
        occurred_at: at(40 * 60_000),
        properties: { opened_at: at(40 * 60_000), first_open: true, machine: false },
      },
      {
        ...about,
        name: "email.clicked",
        source: "tracking",
        occurred_at: at(42 * 60_000),
        properties: { link: "https://acme.test/demo", clicked_at: at(42 * 60_000), first_click: true, machine: false },
      },
      // What the prospect's application would send with POST /v1/events.
      { organization_id, contact_id: contact.id, name: "demo_booked", source: "api", occurred_at: at(50 * 60_000), properties: { plan: "pro", seats: 12 } },
    ],
  });
  const reply = await db.email.create({
    data: {
      organization_id,
      thread_id: thread.id,
      parent_email_id: email.id,
      contact_id: contact.id,
      direction: "inbound",
      message_id: `<reply-${thread.id}@prospect.test>`,
      from_email: contact.email,
      from_name: "Grace Hopper",
      to_email: "ada@acme.test",
      subject: "Re: Quick question about your Q4 plans",
      text_content: "Hi Ada, yes we are. Can you send pricing for 200k contacts?\n\nGrace",
      status: "received",
      sent_at: new Date(sentAt.getTime() + 60 * 60_000),
      created_at: new Date(sentAt.getTime() + 60 * 60_000),
    },
  });
  await db.threadDraft.create({
    data: { organization_id, thread_id: thread.id, user_id: user.id, text_content: "Hi Grace, thanks! Pricing for 200k contacts is attached.", subject: null },
  });
  process.stdout.write(JSON.stringify({ email_id: email.id, reply_id: reply.id, thread_id: thread.id }));
}

main()
  .then(() => db.$disconnect())
  .catch(async (error: unknown) => {
    console.error(error);
    await db.$disconnect();
    process.exit(1);
  });

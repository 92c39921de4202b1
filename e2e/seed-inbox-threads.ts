// Seeds two answered conversations of one inbox for the unified inbox's walk: a lead who asks for
// pricing (interested, with a shared draft) and one who asks who is writing (needs a reply). Replies
// come from IMAP, which the e2e server does not poll, so they are written with the app's Prisma
// client: `npx tsx e2e/seed-inbox-threads.ts <user email> <inbox id>`. Prints { interested, question }
// (thread ids) and the pricing reply's Message-ID as JSON.
import { db } from "@/lib/db";

async function conversation(organizationId: string, inbox: { id: string; from_email: string; from_name: string | null }, lead: Lead, minutesAgo: number) {
  const at = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const contact = await db.contact.create({ data: { organization_id: organizationId, email: lead.email, first_name: lead.name.split(" ")[0] } });
  const thread = await db.thread.create({
    data: {
      organization_id: organizationId,
      subject: "Idea for {{first_name}}",
      contact_id: contact.id,
      inbox_id: inbox.id,
      category: lead.category,
      last_message_at: at(minutesAgo),
    },
  });
  const sentId = `<sent-${thread.id}@${inbox.from_email.split("@")[1]}>`;
  const subject = `Idea for ${lead.name.split(" ")[0]}`;
  await db.email.create({
    data: {
      organization_id: organizationId,
      thread_id: thread.id,
      contact_id: contact.id,
      inbox_id: inbox.id,
      message_id: sentId,
      from_email: inbox.from_email,
      from_name: inbox.from_name,
      to_email: lead.email,
      subject: "Idea for {{first_name}}",
      text_content: "Hi, would a shared inbox for your sales team help?",
      headers: { "Message-ID": sentId, Subject: subject },
      status: "sent",
      sent_at: at(minutesAgo + 60),
      created_at: at(minutesAgo + 60),
    },
  });
  const replyId = `<reply-${thread.id}@prospect.test>`;
  await db.email.create({
    data: {
      organization_id: organizationId,
      thread_id: thread.id,
      contact_id: contact.id,
      inbox_id: inbox.id,
      direction: "inbound",
      status: "received",
      message_id: replyId,
      in_reply_to: sentId,
      references: [sentId],
      from_email: lead.email,
      from_name: lead.name,
      to_email: inbox.from_email,
      subject: `Re: ${subject}`,
      text_content: lead.reply,
      created_at: at(minutesAgo),
    },
  });
  if (lead.draft) await db.threadDraft.create({ data: { organization_id: organizationId, thread_id: thread.id, text_content: lead.draft } });
  return { threadId: thread.id, replyId };
}

type Lead = { name: string; email: string; category: "interested" | "needs_reply"; reply: string; draft?: string };

async function main() {
  const [userEmail, inboxId] = process.argv.slice(2);
  if (!userEmail || !inboxId) throw new Error("usage: tsx e2e/seed-inbox-threads.ts <user email> <inbox id>");
  const user = await db.user.findFirstOrThrow({ where: { email: userEmail.toLowerCase() }, include: { memberships: true } });
  const organizationId = user.memberships[0].organization_id;
  const inbox = await db.inbox.findFirstOrThrow({ where: { id: inboxId, organization_id: organizationId } });
  const tag = Date.now().toString(36);
  const question = await conversation(
    organizationId,
    inbox,
    { name: "Quinn Query", email: `quinn-${tag}@prospect.test`, category: "needs_reply", reply: "Who gave you my address?" },
    5,
  );
  const interested = await conversation(
    organizationId,
    inbox,
    {
      name: "Grace Hopper",
      email: `grace-${tag}@prospect.test`,
      category: "interested",
      reply: "Sounds great. What does it cost for 20 seats?\n\nGrace",
      draft: "Hi Grace, 20 seats are",
    },
    15,
  );
  process.stdout.write(JSON.stringify({ interested: interested.threadId, question: question.threadId, pricingReplyId: interested.replyId }));
}

main()
  .then(() => db.$disconnect())
  .catch(async (error: unknown) => {
    console.error(error);
    await db.$disconnect();
    process.exit(1);
  });

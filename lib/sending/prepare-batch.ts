import type Mail from "nodemailer/lib/mailer";
import { openSecret } from "@/lib/crypto/secret-box";
import { trackOutgoing, type Tracked } from "@/lib/tracking/track-outgoing";
import type { Broadcast, Contact, Email, Inbox, SequenceStep, Template } from "@/lib/generated/prisma/client";
import type { TopicSubscription } from "@/lib/generated/prisma/enums";
import { receivesTopic } from "@/lib/audience/topics";
import { domainOf, returnPathHost } from "@/lib/domain/addresses";
import { engineDb } from "./engine-db";
import type { AttachmentMeta } from "@/lib/domain/attachment-meta";
import { mimeMessageWithAttachments, type MimeAttachment } from "./mime-attachments";
import { mimeMessage, normalizeAddress, type MimeInput } from "./mime-message";
import { contactValues, renderEmail, type RenderedEmail } from "@/lib/templating/render-email";
import { forRecipient, loadConditionalContent, type ConditionalContent, type MarketingSource } from "./conditional-content";
import { preferencesUrl } from "./preference-token";
import { unsubscribeUrls } from "./unsubscribe-token";
import { viewInBrowserUrl } from "./view-in-browser";
import { returnPathEnvelope, signing, type MessageWithDsn } from "@/lib/feedback/outgoing";
import type { BroadcastVariant } from "@/lib/schemas/broadcasts";

export type Outgoing = {
  email: Email;
  /** Null: the organization's relay. */
  inbox: Inbox | null;
  /** The SMTP envelope and the finished message, already in wire form. */
  message: Mail.Options;
  rendered: RenderedEmail;
  /** The headers as sent, kept on the email record. */
  headers: Record<string, string>;
  /** Whether its HTML carries the open pixel and click redirects (lib/tracking/track-outgoing.ts), noted on the record. */
  tracked: Tracked;
};

/** A claimed email that must not go out after all, and why. */
export type Withdrawn = { email: Email; reason: string };

type BatchData = {
  broadcasts: Map<string, Broadcast>;
  steps: Map<string, SequenceStep>;
  templates: Map<string, Template>;
  contacts: Map<string, Contact>;
  inboxes: Map<string, Inbox>;
  suppressed: Set<string>;
  topicChoices: Map<string, boolean>;
  topicDefaults: Map<string, TopicSubscription>;
  /** DKIM keys of the organizations' verified sender domains whose DKIM record is verified, by `organization:domain`. */
  dkim: Map<string, { domainName: string; keySelector: string; privateKey: string }>;
  /** The verified domains among the emails' from domains, by `organization:domain`. */
  verifiedDomains: Set<string>;
  /** Return-path hosts of the verified sender domains whose MX and SPF records are verified, by `organization:domain`. */
  returnPaths: Map<string, string>;
};

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
const present = <T>(values: (T | null | undefined)[]) => [...new Set(values.filter((v): v is T => v !== null && v !== undefined))];
const suppressionKey = (organizationId: string, email: string) => `${organizationId}:${email.trim().toLowerCase()}`;

/** A key sealed under another AUTH_SECRET cannot be read: the email then goes unsigned rather than not at all. */
function readableSecret(sealed: string | null): string | null {
  if (!sealed) return null;
  try {
    return openSecret(sealed);
  } catch {
    return null;
  }
}

async function loadBatchData(emails: Email[]): Promise<BatchData> {
  const db = engineDb();
  const [broadcasts, steps, contacts, inboxes, suppressions] = await Promise.all([
    db.broadcast.findMany({ where: { id: { in: present(emails.map((e) => e.broadcast_id)) } } }),
    db.sequenceStep.findMany({ where: { id: { in: present(emails.map((e) => e.step_id)) } } }),
    db.contact.findMany({ where: { id: { in: present(emails.map((e) => e.contact_id)) } } }),
    db.inbox.findMany({ where: { id: { in: present(emails.map((e) => e.inbox_id)) } } }),
    db.suppression.findMany({
      where: {
        organization_id: { in: present(emails.map((e) => e.organization_id)) },
        email: { in: present(emails.flatMap((e) => recipientsOf(e).map((address) => address.toLowerCase()))) },
      },
      select: { organization_id: true, email: true },
    }),
  ]);
  const templates = await db.template.findMany({
    where: { id: { in: present([...broadcasts.map((b) => b.template_id), ...steps.map((s) => s.template_id)]) } },
  });
  const topicIds = present(broadcasts.map((b) => b.topic_id));
  const domains = await db.domain.findMany({
    where: {
      organization_id: { in: present(emails.map((e) => e.organization_id)) },
      name: { in: present([...emails.map((e) => domainOf(e.from_email)), ...inboxes.map((i) => domainOf(i.from_email))]) },
      status: "verified",
    },
    select: {
      organization_id: true,
      name: true,
      dkim_selector: true,
      dkim_private_key_encrypted: true,
      dkim_verified_at: true,
      return_path: true,
      return_path_verified_at: true,
    },
  });
  const [choices, topics] = await Promise.all([
    db.contactTopic.findMany({
      where: { topic_id: { in: topicIds }, contact_id: { in: present(emails.map((e) => e.contact_id)) } },
      select: { contact_id: true, topic_id: true, subscribed: true },
    }),
    db.topic.findMany({ where: { id: { in: topicIds } }, select: { id: true, default_subscription: true } }),
  ]);
  return {
    broadcasts: byId(broadcasts),
    steps: byId(steps),
    templates: byId(templates),
    contacts: byId(contacts),
    inboxes: byId(inboxes),
    suppressed: new Set(suppressions.map((s) => suppressionKey(s.organization_id, s.email))),
    topicChoices: new Map(choices.map((c) => [`${c.contact_id}:${c.topic_id}`, c.subscribed])),
    topicDefaults: new Map(topics.map((t) => [t.id, t.default_subscription])),
    verifiedDomains: new Set(domains.map((d) => `${d.organization_id}:${d.name}`)),
    returnPaths: new Map(domains.filter((d) => d.return_path_verified_at).map((d) => [`${d.organization_id}:${d.name}`, returnPathHost(d)])),
    dkim: new Map(
      domains.flatMap((d) => {
        // Signed only with a key whose public half is seen published: a signature that cannot be checked hurts more than none.
        const privateKey = d.dkim_verified_at ? readableSecret(d.dkim_private_key_encrypted) : null;
        return privateKey ? [[`${d.organization_id}:${d.name}`, { domainName: d.name, keySelector: d.dkim_selector, privateKey }] as const] : [];
      }),
    ),
  };
}

const atVerifiedDomain = (organizationId: string, address: string, data: BatchData) => data.verifiedDomains.has(`${organizationId}:${domainOf(address)}`);

/** Every address the email goes to: to (to_email alone for a broadcast's), cc and bcc, each once. */
function recipientsOf(email: Pick<Email, "to_email" | "to" | "cc" | "bcc">): string[] {
  const all = [...(email.to.length > 0 ? email.to : [email.to_email]), ...email.cc, ...email.bcc].map((address) => address.trim());
  return [...new Map(all.map((address) => [address.toLowerCase(), address])).values()];
}

/** The recipients not suppressed since the email was created: suppression is per recipient, the others still get it. */
const deliverableRecipients = (email: Email, data: BatchData) =>
  recipientsOf(email).filter((address) => !data.suppressed.has(suppressionKey(email.organization_id, address)));

/** Why a claimed email must not go out now that it is its turn (the audience may have changed since the fan-out). */
function withdrawal(email: Email, data: BatchData): string | null {
  if (deliverableRecipients(email, data).length === 0) return recipientsOf(email).length > 1 ? "Every address is suppressed" : "The address is suppressed";
  // Through an inbox, only its own address or one at a verified domain: an email created before the
  // inbox's address changed does not go out under the new server's proof.
  const inbox = email.inbox_id ? data.inboxes.get(email.inbox_id) : undefined;
  if (inbox && inbox.from_email.toLowerCase() !== email.from_email.toLowerCase() && !atVerifiedDomain(email.organization_id, email.from_email, data)) {
    return "The from address is neither the inbox's own nor at a verified domain";
  }
  const broadcast = email.broadcast_id ? data.broadcasts.get(email.broadcast_id) : undefined;
  // An automation's email is marketing mail as a broadcast's is (lib/automations).
  if (!broadcast && !email.automation_id) return null;
  const contact = email.contact_id ? data.contacts.get(email.contact_id) : undefined;
  if (contact && !contact.subscribed) return "The contact unsubscribed";
  if (contact && broadcast?.topic_id) {
    const choice = data.topicChoices.get(`${contact.id}:${broadcast.topic_id}`);
    // A topic deleted since the fan-out leaves the broadcast without one (topic_id is set null).
    const defaultSubscription = data.topicDefaults.get(broadcast.topic_id);
    if (defaultSubscription && !receivesTopic(choice, defaultSubscription)) return "The contact is not subscribed to the broadcast's topic";
  }
  return null;
}

const orNull = (value: string | null | undefined) => (value ? value : null);

/** The A/B variant a broadcast's first email carries: its own draw (the test share), else the winner (the rest). */
function variantOf(email: Email, broadcast: Broadcast): BroadcastVariant | undefined {
  const variants = Array.isArray(broadcast.variants) ? (broadcast.variants as BroadcastVariant[]) : [];
  const index = email.variant_index ?? broadcast.ab_winner_index;
  return index === null ? undefined : variants[index];
}

/**
 * What a broadcast's email says: content already on the row, else its step's own content or
 * template, else its A/B variant's own content, else the broadcast's template or own content. The
 * row's subject is the subject template (a step's `Re:` subject, an A/B variant's subject included).
 * `origin` names the record the content is from, whose document says what its conditional blocks
 * need (a variant's own content is plain HTML or text: none).
 */
function marketingSource(email: Email, broadcast: Broadcast | undefined, data: BatchData): MarketingSource {
  const subject = email.subject;
  if (email.html_content !== null || email.text_content !== null) {
    return { subject, html: email.html_content, text: email.text_content, previewText: null, origin: null };
  }
  const of = (kind: string, record: { id: string; content_json: unknown }) => ({ key: `${kind}:${record.id}`, doc: record.content_json });
  const step = email.step_id ? data.steps.get(email.step_id) : undefined;
  if (step) {
    const own = orNull(step.html_content) || orNull(step.text_content);
    const template = step.template_id ? data.templates.get(step.template_id) : undefined;
    if (own || !template) return { subject, html: orNull(step.html_content), text: orNull(step.text_content), previewText: null, origin: of("step", step) };
    return {
      subject,
      html: orNull(template.html_content),
      text: orNull(template.text_content),
      previewText: template.preview_text,
      origin: of("template", template),
    };
  }
  const variant = broadcast && email.sequence_position === 0 ? variantOf(email, broadcast) : undefined;
  if (variant && (variant.html_content || variant.text_content)) {
    return { subject, html: orNull(variant.html_content), text: orNull(variant.text_content), previewText: broadcast?.preview_text ?? null, origin: null };
  }
  const template = broadcast?.template_id ? data.templates.get(broadcast.template_id) : undefined;
  if (template) {
    return {
      subject,
      html: orNull(template.html_content),
      text: orNull(template.text_content),
      previewText: broadcast?.preview_text ?? template.preview_text,
      origin: of("template", template),
    };
  }
  return {
    subject,
    html: orNull(broadcast?.html_content),
    text: orNull(broadcast?.text_content),
    previewText: broadcast?.preview_text ?? null,
    origin: broadcast ? of("broadcast", broadcast) : null,
  };
}

/** An email rendered but not yet built: tracking still rewrites its HTML. */
type Draft = Omit<Outgoing, "message"> & { extraHeaders: Record<string, string>; dkim: Mail.Options["dkim"]; returnPath: string | null; envelopeTo: string[] };

function compose(email: Email, data: BatchData, conditional: ConditionalContent): Draft {
  const inbox = email.inbox_id ? (data.inboxes.get(email.inbox_id) ?? null) : null;
  // Deleted since the claim: retried, and then it is a relay email (its inbox_id is cleared).
  if (email.inbox_id && !inbox) throw new Error("The email's inbox no longer exists");
  // Unverified since the claim (its address or server changed): retried, and claimed only once it is proven again.
  if (inbox && inbox.sender_confirmed_at === null && !atVerifiedDomain(inbox.organization_id, inbox.from_email, data)) {
    throw new Error("The inbox's from address is not verified");
  }
  const extraHeaders: Record<string, string> = {};
  let rendered: RenderedEmail;
  if (email.broadcast_id || email.automation_id) {
    const contact = email.contact_id ? data.contacts.get(email.contact_id) : undefined;
    const unsubscribe = unsubscribeUrls(email.id);
    // The preference page names the contact; an email whose contact was deleted has only the unsubscribe link.
    const preferences = contact ? preferencesUrl(contact.id) : null;
    const extra: Record<string, string> = { unsubscribe_url: unsubscribe.page, view_in_browser_url: viewInBrowserUrl(email.id) };
    if (preferences) extra.preferences_url = preferences;
    const values = contactValues(contact ?? { email: email.to_email, first_name: null, last_name: null, metadata: {} }, extra);
    const broadcast = email.broadcast_id ? data.broadcasts.get(email.broadcast_id) : undefined;
    const source = forRecipient(marketingSource(email, broadcast, data), email.contact_id, conditional);
    rendered = renderEmail(source, { values, unsubscribeUrl: unsubscribe.page, preferencesUrl: preferences });
    extraHeaders["List-Unsubscribe"] = `<${unsubscribe.oneClick}>`;
    extraHeaders["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  } else {
    rendered = { subject: email.subject, html: email.html_content, text: email.text_content ?? "" };
  }
  // The caller's own X- headers (validated when the email was created) after the platform's.
  for (const [name, value] of Object.entries((email.custom_headers ?? {}) as Record<string, string>)) extraHeaders[name] = String(value);
  const recorded: Record<string, string> = {
    "Message-ID": email.message_id,
    From: email.from_name ? `${email.from_name} <${email.from_email}>` : email.from_email,
    To: toHeader(email),
    Subject: rendered.subject,
  };
  if (email.cc.length > 0) recorded.Cc = email.cc.join(", ");
  if (email.reply_to) recorded["Reply-To"] = email.reply_to;
  if (email.in_reply_to) recorded["In-Reply-To"] = email.in_reply_to;
  if (email.references.length > 0) recorded.References = email.references.join(" ");
  return {
    email,
    inbox,
    rendered,
    headers: { ...recorded, ...extraHeaders },
    // Set by trackOutgoing, which runs on every draft.
    tracked: { opens: false, clicks: false },
    extraHeaders,
    // Signed with the key whose public half the domain publishes (GET /v1/domains/{id} lists the record).
    dkim: signing(data.dkim.get(`${email.organization_id}:${domainOf(email.from_email)}`)),
    // Relay mail only: an inbox's own server sends with its own address, and its reports reach that inbox.
    returnPath: inbox ? null : (data.returnPaths.get(`${email.organization_id}:${domainOf(email.from_email)}`) ?? null),
    envelopeTo: deliverableRecipients(email, data),
  };
}

const toHeader = (email: Email) => (email.to.length > 0 ? email.to.join(", ") : email.to_email);

/** The email's attachments as its record lists them, each with where its bytes are. */
function mimeAttachments(email: Email): MimeAttachment[] {
  return (email.attachments as AttachmentMeta[]).map((a, index) => ({
    ref: { emailId: email.id, organizationId: email.organization_id, index, size: a.size },
    filename: a.filename,
    contentType: a.content_type,
    contentId: a.content_id ?? null,
  }));
}

function build({ extraHeaders, dkim, returnPath, envelopeTo, ...draft }: Draft): Outgoing {
  const { email, rendered } = draft;
  const input: MimeInput = {
    from: { name: email.from_name ?? "", address: email.from_email },
    to: toHeader(email),
    cc: email.cc.length > 0 ? email.cc.join(", ") : null,
    replyTo: email.reply_to,
    subject: rendered.subject,
    messageId: email.message_id,
    inReplyTo: email.in_reply_to,
    references: email.references,
    headers: extraHeaders,
    text: rendered.text,
    html: rendered.html,
  };
  const attachments = mimeAttachments(email);
  const built = attachments.length > 0 ? mimeMessageWithAttachments(input, attachments) : mimeMessage(input);
  // The envelope goes to the recipients still deliverable (bcc among them, in no header).
  const envelope = { ...built.envelope, to: envelopeTo.map(normalizeAddress) };
  // The Message-ID given again, or nodemailer draws a random one it never uses.
  const verp = returnPath ? returnPathEnvelope(email.id, envelopeTo[0], returnPath) : null;
  const message: MessageWithDsn = { envelope: verp ? { ...envelope, from: verp.from } : envelope, messageId: email.message_id, dkim };
  if ("raw" in built) message.raw = built.raw;
  else message.streamed = built.streamed;
  if (verp) {
    // ORCPT names one recipient: with several, each would be told it was another's.
    message.dsn = envelopeTo.length === 1 ? verp.dsn : { ...verp.dsn, orcpt: undefined };
  }
  return { ...draft, message };
}

/**
 * Loads what the claimed emails need and renders each; the ones that must not go out are withdrawn.
 * `stopped`: claimed, but paused or cancelled (with their broadcast, or out of their sequence)
 * before they could be read, or their broadcast no longer sending: given back, not sent.
 */
export async function prepareBatch(
  ids: string[],
): Promise<{ outgoing: Outgoing[]; withdrawn: Withdrawn[]; broken: { email: Email; error: unknown }[]; stopped: Email[] }> {
  const found = await engineDb().email.findMany({ where: { id: { in: ids } } });
  const queued = found.filter((email) => email.status === "queued");
  const data = await loadBatchData(queued);
  // A broadcast's email goes only while its broadcast is sending, read after the claim: a cancel
  // commits its status before it gets to the emails (cancel-emails.ts), and one that committed
  // between this batch's claim and now must not have them sent.
  const mayGo = (email: Email) => email.status === "queued" && (!email.broadcast_id || data.broadcasts.get(email.broadcast_id)?.status === "sending");
  const emails = found.filter(mayGo);
  const stopped = found.filter((email) => !mayGo(email));
  const drafts: Draft[] = [];
  const withdrawn: Withdrawn[] = [];
  const broken: { email: Email; error: unknown }[] = [];
  const going = emails.filter((email) => {
    const reason = withdrawal(email, data);
    if (reason) withdrawn.push({ email, reason });
    return !reason;
  });
  const conditional = await loadConditionalContent(
    going.flatMap((email) => (email.broadcast_id ? [{ email, source: marketingSource(email, data.broadcasts.get(email.broadcast_id), data) }] : [])),
  );
  for (const email of going) {
    try {
      drafts.push(compose(email, data, conditional));
    } catch (error) {
      broken.push({ email, error });
    }
  }
  await trackOutgoing(drafts, data);
  const outgoing: Outgoing[] = [];
  for (const draft of drafts) {
    try {
      outgoing.push(build(draft));
    } catch (error) {
      broken.push({ email: draft.email, error });
    }
  }
  return { outgoing, withdrawn, broken, stopped };
}

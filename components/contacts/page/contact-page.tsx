"use client";

import { Pencil, User } from "lucide-react";
import dynamic from "next/dynamic";
import { useMemo, useState } from "react";
import { BackLink } from "@/components/ui/back-link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { RecordLoadError } from "@/components/ui/record-load-error";
import { SkeletonRecordPage } from "@/components/ui/skeleton";
import { useContact, useContactEmails } from "@/lib/client/resources/contact-page";
import { SuppressionBadge } from "../suppression";
import { ConsentCard } from "./consent-card";
import { ContactDetailsCard, ContactEmailsCard, ContactSegmentsCard } from "./contact-cards";
import { ContactTimeline } from "./contact-timeline";
import { TopicSwitchesCard } from "./topic-switches-card";

// The form (react-hook-form, zod) loads after the page, as on /contacts: most visits only read.
const ContactDialog = dynamic(() => import("../contact-dialog").then((m) => m.ContactDialog), { ssr: false });

const fullName = (c: { first_name: string | null; last_name: string | null }) => [c.first_name, c.last_name].filter(Boolean).join(" ");

/** One contact: its timeline and emails, its fields and properties, segments and topics (a switch each). */
export function ContactPage({ id }: { id: string }) {
  const query = useContact(id);
  const emails = useContactEmails(id);
  const [editing, setEditing] = useState(false);
  // The subjects of the contact's emails, for the timeline's "Opened *Subject*".
  const subjects = useMemo(() => new Map((emails.data?.data ?? []).map((email) => [email.id, email.subject])), [emails.data]);

  if (query.isPending) {
    return <SkeletonRecordPage label="Loading the contact" titleClassName="w-80" mainClassName="h-[480px]" />;
  }
  if (query.isError) {
    return (
      <RecordLoadError
        query={query}
        list={{ href: "/contacts", label: "Contacts" }}
        title="Contact"
        icon={User}
        notFoundTitle="Contact not found"
        errorTitle="Could not load the contact"
      />
    );
  }

  const contact = query.data;
  return (
    <>
      <PageHeader
        breadcrumb={<BackLink href="/contacts">Contacts</BackLink>}
        title={
          <span className="flex flex-wrap items-center gap-3">
            <span className="min-w-0 break-all">{fullName(contact) || contact.email}</span>
            {contact.subscribed ? (
              <Badge tone="success" dot>
                Subscribed
              </Badge>
            ) : (
              <Badge tone="neutral" dot>
                Unsubscribed
              </Badge>
            )}
            <SuppressionBadge suppression={contact.suppression} />
          </span>
        }
        description={fullName(contact) ? contact.email : undefined}
        actions={
          <Button variant="secondary" onClick={() => setEditing(true)}>
            <Pencil aria-hidden />
            Edit contact
          </Button>
        }
      />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_320px]">
        <div className="flex min-w-0 flex-col gap-6">
          <ContactTimeline contactId={contact.id} subjects={subjects} />
          <ContactEmailsCard query={emails} />
        </div>
        <aside className="flex flex-col gap-6" aria-label="About this contact">
          <ContactDetailsCard contact={contact} />
          <ContactSegmentsCard contactId={contact.id} />
          <TopicSwitchesCard contactId={contact.id} />
          <ConsentCard contact={contact} />
        </aside>
      </div>
      {/* Saving refreshes every contact query (its record and its timeline among them). */}
      <ContactDialog open={editing} onOpenChange={setEditing} contact={contact} />
    </>
  );
}

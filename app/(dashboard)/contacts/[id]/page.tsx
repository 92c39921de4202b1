import type { Metadata } from "next";
import { ContactPage } from "@/components/contacts/page/contact-page";

export const metadata: Metadata = { title: "Contact" };

export default async function ContactDetailPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ContactPage id={id} />;
}

import type { Metadata } from "next";
import { WebhooksList } from "@/components/webhooks/webhooks-list";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return <WebhooksList />;
}

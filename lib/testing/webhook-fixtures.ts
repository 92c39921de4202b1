import { sealSecret } from "@/lib/crypto/secret-box";
import { db } from "@/lib/db";

/**
 * A webhook row subscribed to `events`, for tests that read the deliveries written for it: its
 * default URL reaches no one, its secret is fixed (tests that receive deliveries make their own).
 */
export function addTestWebhook(organizationId: string, events: string[], options: { url?: string; secret?: string } = {}) {
  return db.webhook.create({
    data: {
      organization_id: organizationId,
      url: options.url ?? "https://hooks.example.com/",
      events,
      secret_encrypted: sealSecret(options.secret ?? "whsec_AAAA"),
    },
  });
}

import type { ReceivedMail } from "./smtp-sink";

export type DeliveryCount = {
  /** Recipients who got the email at least once. */
  reached: number;
  /** Recipients who got it more than once, and the extra copies in all. */
  repeated: number;
  extra: number;
  /** Expected recipients who got nothing. */
  missing: string[];
  /** A recipient whose copies carried different Message-IDs (a repeat must be the same email). */
  mixedMessageIds: string[];
};

/** Deliveries per recipient at a sink, against the recipients expected. */
export function countDeliveries(messages: ReceivedMail[], expected: string[]): DeliveryCount {
  const byRecipient = new Map<string, Set<string>>();
  const copies = new Map<string, number>();
  for (const mail of messages) {
    for (const to of mail.envelopeTo) {
      copies.set(to, (copies.get(to) ?? 0) + 1);
      byRecipient.set(to, (byRecipient.get(to) ?? new Set()).add(mail.messageId ?? "missing"));
    }
  }
  let repeated = 0;
  let extra = 0;
  for (const n of copies.values()) {
    if (n > 1) {
      repeated++;
      extra += n - 1;
    }
  }
  return {
    reached: copies.size,
    repeated,
    extra,
    missing: expected.filter((address) => !copies.has(address)),
    mixedMessageIds: [...byRecipient].filter(([, ids]) => ids.size > 1).map(([to]) => to),
  };
}

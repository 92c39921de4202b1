import { describe, expect, it } from "vitest";
import { webhookEventTypes } from "@/lib/schemas/webhooks";
import { eventGroups } from "./webhook-types";

describe("the webhook dialog's event groups", () => {
  it("offer every event type a webhook can subscribe to, once", () => {
    const offered = eventGroups.flatMap((group) => group.events.map((event) => event.type));
    expect([...offered].sort()).toEqual([...webhookEventTypes].sort());
  });
});

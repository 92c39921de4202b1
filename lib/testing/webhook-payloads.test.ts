import { describe, expect, it } from "vitest";
import { documentedPayload } from "./webhook-payloads";

const sent = {
  type: "email.sent",
  created_at: "2026-11-26T10:00:00.000Z",
  data: {
    email_id: "8c5e3f4e-2d7c-4a57-9a53-1f0c2a8e7b11",
    message_id: "<8c5e3f4e@acme.test>",
    broadcast_id: null,
    contact_id: null,
    thread_id: null,
    from: "hello@acme.test",
    to: ["pat@example.test"],
    subject: "Hi",
    tags: [],
    created_at: "2026-11-26T09:59:59.000Z",
  },
};

describe("documentedPayload", () => {
  it("passes a payload its event's schema describes, and refuses a wrong field, an undocumented one and an unknown type", () => {
    expect(documentedPayload(sent)).toEqual(sent);
    expect(() => documentedPayload({ ...sent, data: { ...sent.data, to: "pat@example.test" } })).toThrow(/data\.to/);
    expect(() => documentedPayload({ ...sent, data: { ...sent.data, cc: [] } })).toThrow(/does not document: data\.cc/);
    expect(() => documentedPayload({ ...sent, type: "email.teleported" })).toThrow(/undocumented type/);
  });
});

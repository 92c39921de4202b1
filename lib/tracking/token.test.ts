import { describe, expect, it } from "vitest";
import { readUnsubscribeToken, unsubscribeToken } from "@/lib/sending/unsubscribe-token";
import { signClickToken, signOpenToken, verifyClickToken, verifyOpenToken } from "./token";

const id = "0b7a9c1e-3d2f-4a5b-8c6d-7e8f9a0b1c2d";
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Every token that differs from `token` in its last character only. */
const lastCharacterVariants = (token: string) => [...alphabet].filter((c) => c !== token.at(-1)).map((c) => token.slice(0, -1) + c);

describe("signed tokens", () => {
  it("accept only their canonical spelling, never a variant in the last character's ignored bits", () => {
    const open = signOpenToken(id);
    expect(verifyOpenToken(open)).toEqual({ emailId: id });
    for (const variant of lastCharacterVariants(open)) expect(verifyOpenToken(variant)).toBeNull();

    const click = signClickToken(id, "https://example.org/a");
    expect(verifyClickToken(click)).toMatchObject({ emailId: id, url: "https://example.org/a" });
    for (const variant of lastCharacterVariants(click)) expect(verifyClickToken(variant)).toBeNull();

    const unsubscribe = unsubscribeToken(id);
    expect(readUnsubscribeToken(unsubscribe)).toBe(id);
    for (const variant of lastCharacterVariants(unsubscribe)) expect(readUnsubscribeToken(variant)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { checkEndpoint, isPublicAddress, normalizeHost, outboundPolicy, strictOutboundPolicy } from "./outbound-policy";
import { parseAllowedEndpoint } from "./host";

describe("outbound address policy", () => {
  const refused = [
    "127.0.0.1",
    "127.9.9.9",
    "::1",
    "0.0.0.0",
    "::",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.10",
    "100.64.0.1",
    "169.254.169.254",
    "169.254.1.1",
    "fd00:ec2::254",
    "fc00::1",
    "fe80::1",
    "fe80::1%eth0",
    "224.0.0.251",
    "ff02::1",
    "255.255.255.255",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "64:ff9b::a9fe:a9fe", // NAT64 of 169.254.169.254
    "64:ff9b::127.0.0.1",
    "2002:7f00:1::1", // 6to4 of 127.0.0.1
    "2002:c0a8:101::1", // 6to4 of 192.168.1.1
    "2001:db8::1",
    "not-an-address",
    "example.com",
  ];
  const allowed = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"];

  it.each(refused)("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(allowed)("allows %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("reads every spelling of an address as the address it is", () => {
    for (const spelling of ["127.1", "0x7f.1", "2130706433", "017700000001", "0177.0.0.1", "[::ffff:127.0.0.1]", "::FFFF:7F00:1", " 127.0.0.1. "]) {
      expect(normalizeHost(spelling), spelling).toEqual({ host: "127.0.0.1", ip: true });
    }
    expect(normalizeHost("[::1]")).toEqual({ host: "::1", ip: true });
    expect(normalizeHost("0:0:0:0:0:0:0:1")).toEqual({ host: "::1", ip: true });
    expect(normalizeHost("LOCALHOST.")).toEqual({ host: "localhost", ip: false });
    expect(normalizeHost("256.1.1.1")).toEqual({ host: "256.1.1.1", ip: false });
    expect(normalizeHost("smtp.Example.COM")).toEqual({ host: "smtp.example.com", ip: false });
  });

  it("parses ALLOWED_PRIVATE_HOSTS entries", () => {
    expect(parseAllowedEndpoint("mail.internal:25")).toEqual({ host: "mail.internal", port: 25 });
    expect(parseAllowedEndpoint("127.0.0.1:*")).toEqual({ host: "127.0.0.1", port: "*" });
    expect(parseAllowedEndpoint("[::1]:587")).toEqual({ host: "::1", port: 587 });
    for (const bad of ["mail.internal", "mail.internal:0", "mail.internal:70000", "::1:25", "host:25:26", ":25", "a b:25"]) {
      expect(parseAllowedEndpoint(bad), bad).toBeNull();
    }
  });

  it("admits a private endpoint only as listed, and nothing else private with it", async () => {
    const policy = outboundPolicy({
      allowedPrivateHosts: ["127.0.0.1:*", "10.0.0.5:25", "mail.internal:587"],
      lookup: async () => [{ address: "10.9.9.9", family: 4 }],
    });
    expect((await checkEndpoint("127.0.0.1", 2525, policy, "save")).allowed).toBe(true);
    expect((await checkEndpoint("127.1", 2525, policy, "save")).allowed).toBe(true);
    expect((await checkEndpoint("10.0.0.5", 25, policy, "save")).allowed).toBe(true);
    expect((await checkEndpoint("10.0.0.5", 26, policy, "save")).allowed).toBe(false);
    expect((await checkEndpoint("mail.internal", 587, policy, "connect")).allowed).toBe(true);
    expect((await checkEndpoint("mail.internal", 25, policy, "connect")).allowed).toBe(false);
    expect((await checkEndpoint("10.0.0.1", 25, policy, "save")).allowed).toBe(false);
    expect((await checkEndpoint("169.254.169.254", 80, policy, "save")).allowed).toBe(false);
    expect((await checkEndpoint("127.0.0.1", 2525, strictOutboundPolicy, "save")).allowed).toBe(false);
  });

  it("keeps the platform's relay out of reach unless its exact host:port is listed", async () => {
    const lookup = async (name: string) => [
      { address: name === "relay.example.net" || name === "alias.example.org" ? "203.0.114.7" : "198.51.99.1", family: 4 },
    ];
    const relay = { reservedRelayUrls: ["smtp://relay.example.net:587"], lookup };
    const policy = outboundPolicy(relay);
    expect(await checkEndpoint("relay.example.net", 587, policy, "save")).toEqual({ allowed: false, refusal: "reserved" });
    expect(await checkEndpoint("RELAY.example.net.", 587, policy, "save")).toEqual({ allowed: false, refusal: "reserved" });
    expect(await checkEndpoint("alias.example.org", 587, policy, "connect")).toEqual({ allowed: false, refusal: "reserved" });
    expect(await checkEndpoint("203.0.114.7", 587, policy, "connect")).toEqual({ allowed: false, refusal: "reserved" });
    expect((await checkEndpoint("relay.example.net", 25, policy, "save")).allowed).toBe(true);
    expect((await checkEndpoint("other.example.org", 587, policy, "save")).allowed).toBe(true);
    expect((await checkEndpoint("relay.example.net", 587, outboundPolicy({ ...relay, allowedPrivateHosts: ["relay.example.net:*"] }), "save")).allowed).toBe(
      false,
    );
    expect((await checkEndpoint("relay.example.net", 587, outboundPolicy({ ...relay, allowedPrivateHosts: ["relay.example.net:587"] }), "save")).allowed).toBe(
      true,
    );
  });

  it("refuses localhost names and single labels without resolving them, and unresolvable names only when connecting", async () => {
    const lookup = async () => {
      throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
    };
    const policy = outboundPolicy({ lookup });
    expect(await checkEndpoint("LOCALHOST.", 25, policy, "save")).toEqual({ allowed: false, refusal: "private" });
    expect(await checkEndpoint("mail.localhost", 25, policy, "save")).toEqual({ allowed: false, refusal: "private" });
    expect(await checkEndpoint("postgres", 5432, policy, "save")).toEqual({ allowed: false, refusal: "single-label" });
    expect(await checkEndpoint("smtp.nowhere.example", 25, policy, "save")).toEqual({ allowed: true, addresses: [] });
    expect(await checkEndpoint("smtp.nowhere.example", 25, policy, "connect")).toEqual({ allowed: false, refusal: "unresolvable" });
  });

  it("refuses a name when any of its addresses is private", async () => {
    const policy = outboundPolicy({
      lookup: async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "::1", family: 6 },
      ],
    });
    expect(await checkEndpoint("mixed.example.com", 25, policy, "save")).toEqual({ allowed: false, refusal: "private" });
  });
});

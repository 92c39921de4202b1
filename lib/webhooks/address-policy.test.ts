import { describe, expect, it } from "vitest";
import { isAllowedAddress } from "./address-policy";

describe("webhook address policy", () => {
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
    expect(isAllowedAddress(address)).toBe(false);
  });

  it.each(allowed)("allows %s", (address) => {
    expect(isAllowedAddress(address)).toBe(true);
  });

  it("allows loopback only under the test policy, and nothing else private with it", () => {
    expect(isAllowedAddress("127.0.0.1", { allowLoopbackForTests: true })).toBe(true);
    expect(isAllowedAddress("::1", { allowLoopbackForTests: true })).toBe(true);
    expect(isAllowedAddress("10.0.0.1", { allowLoopbackForTests: true })).toBe(false);
    expect(isAllowedAddress("169.254.169.254", { allowLoopbackForTests: true })).toBe(false);
  });
});

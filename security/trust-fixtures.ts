import type { OrgContext } from "@/lib/domain/context";
import type { ResolvedAddress } from "@/lib/net/outbound-policy";
import type { TestOrg } from "@/lib/testing/api";

/** The owner's context, for calling a service with an explicit (strict) outbound policy. */
export const ownerContext = (org: TestOrg): OrgContext => ({
  organizationId: org.organizationId,
  userId: org.owner.userId,
  userEmail: org.owner.email,
  apiKeyId: null,
  role: "owner",
});

/** A resolver standing in for DNS: `answers(name, call)` gives the addresses of the n-th lookup of a name (0-based). */
export function fakeResolver(answers: (name: string, call: number) => string[]) {
  const calls = new Map<string, number>();
  const lookup = async (name: string): Promise<ResolvedAddress[]> => {
    const call = calls.get(name) ?? 0;
    calls.set(name, call + 1);
    const addresses = answers(name, call);
    if (addresses.length === 0) throw Object.assign(new Error(`${name} not found`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { lookup, calls };
}

export const inboxInput = (host: string, port = 587) => ({
  name: "Probe",
  from_email: "probe@attacker.example",
  smtp: { host, port, secure: false, username: "u", password: "p" },
});

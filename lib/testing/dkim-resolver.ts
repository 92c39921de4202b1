type DnsRecord = { type: string; name: string; value: string };

/**
 * A DNS resolver for mailauth that answers TXT queries from the records the API tells a customer
 * to publish (GET /v1/domains/{id}), and nothing else: signatures are checked as a receiver would.
 */
export function dkimResolver(records: DnsRecord[]) {
  return async (name: string, type: string): Promise<string[][]> => {
    const key = name.toLowerCase().replace(/\.$/, "");
    const matching = records.filter((r) => r.name === key && r.type === type && type === "TXT");
    if (matching.length === 0) throw Object.assign(new Error(`no ${type} for ${name}`), { code: "ENOTFOUND" });
    return matching.map((r) => [r.value]);
  };
}

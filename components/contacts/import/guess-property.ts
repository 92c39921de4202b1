export const contactProperties = ["email", "first_name", "last_name", "subscribed", "tags"] as const;
export type ContactProperty = (typeof contactProperties)[number];

/** What a column becomes: a contact property, a custom property (metadata key), or nothing. */
export type ImportTarget = ContactProperty | "custom" | "ignore";

export const targetLabels: Record<ImportTarget, string> = {
  email: "Email",
  first_name: "First name",
  last_name: "Last name",
  subscribed: "Subscribed",
  tags: "Tags",
  custom: "Custom property",
  ignore: "Don't import",
};

// Header spellings seen in exports from CRMs, newsletter tools and spreadsheets, compared without
// case, spaces, dashes or underscores.
const aliases: Record<ContactProperty, string[]> = {
  email: ["email", "e-mail", "emailaddress", "mail", "emailid", "contactemail", "workemail"],
  first_name: ["firstname", "first", "givenname", "forename", "fname"],
  last_name: ["lastname", "last", "surname", "familyname", "lname"],
  subscribed: ["subscribed", "optin", "optedin", "subscription", "subscriptionstatus", "emailoptin", "marketingoptin", "consent"],
  tags: ["tags", "tag", "labels", "label"],
};

const squash = (header: string) => header.toLowerCase().replace(/[\s_\-.]+/g, "");

/** The likely property of a column from its header; anything unrecognized becomes a custom property. */
function guessTarget(header: string): ImportTarget {
  const key = squash(header);
  if (!key) return "ignore";
  for (const property of contactProperties) {
    if (aliases[property].includes(key)) return property;
  }
  if (key.includes("email") || key.includes("e-mail")) return "email";
  return "custom";
}

/** Guesses for every column, each contact property given to its first matching column only. */
export function guessTargets(headers: string[]): ImportTarget[] {
  const taken = new Set<ImportTarget>();
  return headers.map((header) => {
    const target = guessTarget(header);
    if (target === "custom" || target === "ignore") return target;
    if (taken.has(target)) return "custom";
    taken.add(target);
    return target;
  });
}

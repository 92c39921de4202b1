import providers from "email-providers/all.json";

/**
 * Domains anyone can get an address at (gmail.com, outlook.com, gmx.de, orange.fr, yahoo.es, …):
 * two replies from one of them are two people, not one company. The list is the `email-providers`
 * package's (about 8 800 free and disposable mail domains, updated monthly), read once.
 */
const FREE_MAIL = new Set((providers as string[]).map((domain) => domain.toLowerCase()));

export const isFreeMailDomain = (domain: string) => FREE_MAIL.has(domain.trim().toLowerCase());

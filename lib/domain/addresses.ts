// Pure rules about addresses that services, the engine and feedback all apply, so each has one owner.

/** The domain of an email address, lowercased: what a verified domain, a DKIM key or a company is looked up by. */
export const domainOf = (email: string) =>
  email
    .slice(email.lastIndexOf("@") + 1)
    .trim()
    .toLowerCase();

/** The return-path host: where VERP envelope senders live and reports arrive (bounces.example.com). */
export const returnPathHost = (domain: { name: string; return_path: string }) => `${domain.return_path}.${domain.name}`;

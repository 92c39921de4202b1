// Seeded, reproducible benchmark data: contact `i` of a population is a pure function of (seed, i),
// so any scenario can name existing addresses without keeping the million rows around.
const SEED = 20261122;

const FIRST = [
  "Amelia",
  "Noah",
  "Olivia",
  "Liam",
  "Emma",
  "Lucas",
  "Mia",
  "Leo",
  "Sofia",
  "Hugo",
  "Chloe",
  "Arthur",
  "Lea",
  "Jules",
  "Alice",
  "Louis",
  "Ines",
  "Gabriel",
  "Lina",
  "Adam",
  "Jade",
  "Raphael",
  "Rose",
  "Nathan",
  "Anna",
  "Tom",
  "Eva",
  "Paul",
  "Zoe",
  "Victor",
  "Clara",
  "Ethan",
  "Julia",
  "Sacha",
  "Nina",
  "Maxime",
  "Lola",
  "Oscar",
  "Sarah",
  "Felix",
  "Maya",
  "Samuel",
  "Iris",
  "Simon",
  "Elena",
  "David",
  "Laura",
  "Marc",
  "Hannah",
  "Omar",
];
const LAST = [
  "Smith",
  "Martin",
  "Bernard",
  "Dubois",
  "Thomas",
  "Robert",
  "Richard",
  "Petit",
  "Durand",
  "Leroy",
  "Moreau",
  "Simon",
  "Laurent",
  "Lefebvre",
  "Michel",
  "Garcia",
  "David",
  "Bertrand",
  "Roux",
  "Vincent",
  "Fournier",
  "Morel",
  "Girard",
  "Andre",
  "Mercier",
  "Dupont",
  "Lambert",
  "Bonnet",
  "Francois",
  "Martinez",
  "Legrand",
  "Garnier",
  "Faure",
  "Rousseau",
  "Blanc",
  "Guerin",
  "Muller",
  "Henry",
  "Roussel",
  "Nicolas",
  "Perrin",
  "Morin",
  "Mathieu",
  "Clement",
  "Gauthier",
  "Dumont",
  "Lopez",
  "Fontaine",
  "Chevalier",
  "Robin",
];
const CITIES = ["Paris", "Lyon", "Berlin", "Madrid", "Lisbon", "Dublin", "Vienna", "Prague", "Oslo", "Milan", "Porto", "Ghent"];
const OTHER_TAGS = ["customer", "lead", "trial", "partner", "churned", "beta"];

/** murmur3's finalizer: a well-mixed 32-bit value for (seed, i, salt). */
function mix(i: number, salt: number): number {
  let h = (SEED ^ Math.imul(i, 0x9e3779b1) ^ Math.imul(salt, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export type ContactSeed = { email: string; first_name: string; last_name: string; tags: string[]; company: string; city: string };

/** Contact `i`: about 2 % are Smiths, 10 % carry the tag `vip`, half `newsletter`. */
export function contactAt(i: number): ContactSeed {
  const first = FIRST[mix(i, 1) % FIRST.length];
  const last = LAST[mix(i, 2) % LAST.length];
  const tags: string[] = [];
  if (mix(i, 3) % 2 === 0) tags.push("newsletter");
  if (mix(i, 4) % 10 === 0) tags.push("vip");
  const other = mix(i, 5) % (OTHER_TAGS.length * 2);
  if (other < OTHER_TAGS.length) tags.push(OTHER_TAGS[other]);
  return {
    email: `${first}.${last}.${i}@example.com`.toLowerCase(),
    first_name: first,
    last_name: last,
    tags,
    company: `Company ${mix(i, 6) % 5000}`,
    city: CITIES[mix(i, 7) % CITIES.length],
  };
}

/** A deterministic stream of numbers in [0, 1) for choosing samples. */
export function random(stream: number): () => number {
  let n = 0;
  return () => mix(n++, 1000 + stream) / 2 ** 32;
}

export const CSV_HEADER = "Email,First name,Last name,Tags,Company,City\n";

/** The six columns: four of the contact's own fields and two custom ones that become metadata. */
export const CSV_MAPPINGS = [
  { csv_column: "Email", property_name: "email" },
  { csv_column: "First name", property_name: "first_name" },
  { csv_column: "Last name", property_name: "last_name" },
  { csv_column: "Tags", property_name: "tags" },
  { csv_column: "Company", property_name: "company" },
  { csv_column: "City", property_name: "city" },
];

export function csvLine(c: ContactSeed): string {
  return `${c.email},${c.first_name},${c.last_name},"${c.tags.join(",")}",${c.company},${c.city}\n`;
}

/** The stored values of the CSV row in COPY text format (they need no escaping): email, first_name, last_name, tags, metadata. */
export function stageLine(c: ContactSeed): string {
  return `${c.email}\t${c.first_name}\t${c.last_name}\t{${c.tags.join(",")}}\t{"company":"${c.company}","city":"${c.city}"}\n`;
}

/** The row as the contacts table stores it, in COPY text format. */
export const copyLine = (organizationId: string, c: ContactSeed) => `${organizationId}\t${stageLine(c)}`;

export const COPY_COLUMNS = "organization_id, email, first_name, last_name, tags, metadata";

/** Lines `from` (inclusive) to `to` (exclusive) joined in chunks of about a megabyte. */
export function* chunked(from: number, to: number, line: (i: number) => string): Generator<string> {
  let chunk = "";
  for (let i = from; i < to; i++) {
    chunk += line(i);
    if (chunk.length >= 1 << 20) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

/** The bulk-create element of contact `i`: the same six values as the CSV row. */
export function bulkElement(c: ContactSeed) {
  return { email: c.email, first_name: c.first_name, last_name: c.last_name, tags: c.tags, metadata: { company: c.company, city: c.city } };
}

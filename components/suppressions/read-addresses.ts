import Papa from "papaparse";

const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/**
 * The addresses in a CSV file: the cells of its `email` column when the header names one,
 * otherwise every cell that looks like an address (a plain list with no header works too).
 * Lowercase, trimmed, each once, in file order.
 */
export function readAddresses(file: File): Promise<string[]> {
  return new Promise((resolve, reject) => {
    Papa.parse<string[]>(file, {
      skipEmptyLines: "greedy",
      complete: (results) => {
        const rows = results.data;
        const header = (rows[0] ?? []).map((cell) =>
          cell
            .replace(/^\uFEFF/, "")
            .trim()
            .toLowerCase(),
        );
        const column = header.findIndex((name) => name === "email" || name === "email address" || name === "e-mail");
        const cells = column >= 0 ? rows.slice(1).map((row) => row[column] ?? "") : rows.flat();
        const seen = new Set<string>();
        for (const cell of cells) {
          const address = cell.trim().toLowerCase();
          if (EMAIL.test(address) && address.length <= 320) seen.add(address);
        }
        resolve([...seen]);
      },
      error: (error) => reject(new Error(`Could not read the file: ${error.message}`)),
    });
  });
}

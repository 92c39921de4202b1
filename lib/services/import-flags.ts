import { addressFlags } from "@/lib/audience/address-flags";
import { MAX_IMPORT_ERRORS, type AddressFlag, type ImportContactsResult } from "@/lib/schemas/contacts";

type Flagged = ImportContactsResult["flagged"];

/**
 * The address hygiene of one import (issue 27): rows whose email is not a valid address, and
 * valid ones flagged disposable or role (lib/audience/address-flags.ts), counted all and listed
 * the first MAX_IMPORT_ERRORS; those of a flag the caller asked to skip are left out.
 */
export class ImportFlags {
  private readonly counts: Omit<Flagged, "rows"> = { invalid: 0, disposable: 0, role: 0, skipped: 0 };
  private readonly rows: Flagged["rows"] = [];

  constructor(private readonly skip: ReadonlySet<AddressFlag>) {}

  invalidAddress() {
    this.counts.invalid++;
  }

  /** Counts a valid row's flags; answers whether the row is to be left out. */
  leavesOut(row: number, email: string, given: string): boolean {
    const flags = addressFlags(email);
    if (flags.length === 0) return false;
    const skipped = flags.some((flag) => this.skip.has(flag));
    for (const flag of flags) this.counts[flag]++;
    if (skipped) this.counts.skipped++;
    if (this.rows.length < MAX_IMPORT_ERRORS) this.rows.push({ row, email: given, flags, skipped });
    return skipped;
  }

  get skipped() {
    return this.counts.skipped;
  }

  result(): Flagged {
    return { ...this.counts, rows: this.rows };
  }
}

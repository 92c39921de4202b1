import type { Bench } from "../bench";
import type { Result } from "../stats";

export type Scenario = {
  /** The name --only takes. */
  id: string;
  /** The figures it reports, so that a failed run can still report each of them (as not met). */
  figures: { scenario: string; unit: string; target: string }[];
  run(bench: Bench): Promise<Result[]>;
};

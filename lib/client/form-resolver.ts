import { zodResolver } from "@hookform/resolvers/zod";
import type { FieldValues } from "react-hook-form";
import type { z } from "zod";

type Issue = { code: string; input?: unknown; origin?: string; minimum?: unknown; maximum?: unknown };

// Zod's built-in messages ("Too small: expected string to have >=1 characters") are written for
// developers. Messages a schema spells out itself still win over these.
function friendly(issue: Issue): string | undefined {
  if (issue.code === "invalid_type" && (issue.input === undefined || issue.input === null)) return "Required";
  if (issue.origin === "string" && issue.code === "too_small") {
    return Number(issue.minimum) <= 1 ? "Required" : `Must be at least ${issue.minimum} characters`;
  }
  if (issue.origin === "string" && issue.code === "too_big") return `Must be at most ${issue.maximum} characters`;
  if (issue.origin === "number" && issue.code === "too_small") return `Must be at least ${issue.minimum}`;
  if (issue.origin === "number" && issue.code === "too_big") return `Must be at most ${issue.maximum}`;
  if (issue.code === "invalid_type") return "Invalid value";
  return undefined;
}

/** zodResolver for a shared schema, with messages written for people filling in a form. */
export function formResolver<S extends z.ZodType<FieldValues, FieldValues>>(schema: S) {
  return zodResolver(schema, { error: (issue) => friendly(issue as Issue) });
}

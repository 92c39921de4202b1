import type { Prisma } from "@/lib/db";
import type { Automation } from "@/lib/generated/prisma/client";
import type { SendingWindow } from "@/lib/domain/sending-window";
import type { Filter } from "@/lib/schemas/filters";
import { compileTree, type CompiledTree, type Step } from "./tree";

/** What the engine needs of an automation: its rules and its tree, indexed. */
export type LoadedAutomation = Pick<
  Automation,
  "id" | "organization_id" | "name" | "status" | "sequence_mode" | "inbox_ids" | "from_email" | "from_name" | "reentry"
> & { exit_filter: Filter | null; sending_window: SendingWindow | null; tree: CompiledTree };

export async function loadAutomations(tx: Prisma.TransactionClient, ids: string[]): Promise<Map<string, LoadedAutomation>> {
  const rows = await tx.automation.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      organization_id: true,
      name: true,
      status: true,
      sequence_mode: true,
      inbox_ids: true,
      from_email: true,
      from_name: true,
      reentry: true,
      exit_filter: true,
      sending_window: true,
      steps: true,
    },
  });
  return new Map(
    rows.map(({ steps, exit_filter, sending_window, ...row }) => [
      row.id,
      {
        ...row,
        exit_filter: (exit_filter ?? null) as Filter | null,
        sending_window: (sending_window ?? null) as SendingWindow | null,
        tree: compileTree(steps as unknown as Step[]),
      },
    ]),
  );
}

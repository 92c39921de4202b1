"use client";

import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { toast } from "./toast";
import { useConfirmTarget } from "./use-confirm-target";

type DeleteAction<T> = {
  /** The API call that deletes (or revokes, cancels, removes) the record. */
  run: (target: T) => Promise<unknown>;
  /** The toast once it is done: its title, or its title and a description. */
  done: (target: T) => string | [string, string];
  /** The title of the error toast when the server refuses. */
  failure: string;
  /** The lists to refresh once it is done. */
  invalidate?: QueryKey[];
};

/**
 * The confirm-then-delete of a list row, written once: `ask(record)` opens the ConfirmDialog (spread
 * `dialog` into it), which runs the call; a refusal is shown and keeps the dialog open, success
 * closes it, says so and refreshes the lists named.
 */
export function useDeleteAction<T>({ run, done, failure, invalidate = [] }: DeleteAction<T>) {
  const queryClient = useQueryClient();
  return useConfirmTarget<T>(async (target) => {
    try {
      await run(target);
    } catch (error) {
      toast.error(error, failure);
      throw error;
    }
    const message = done(target);
    if (Array.isArray(message)) toast.success(message[0], message[1]);
    else toast.success(message);
    await Promise.all(invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
  });
}

import { toast as sonner } from "sonner";
import { errorMessage } from "@/lib/client/api";

/** The dashboard's toasts: short confirmations, and failures with the server's own message. */
export const toast = {
  success: (message: string, description?: string) => sonner.success(message, { description }),
  info: (message: string, description?: string) => sonner(message, { description }),
  /** A toast for long work, updated in place under one `id` until dismissed or replaced. */
  progress: (id: string, message: string, description?: string) => sonner.loading(message, { id, description, duration: Infinity }),
  dismiss: (id: string) => sonner.dismiss(id),
  error: (error: unknown, title?: string) => (title ? sonner.error(title, { description: errorMessage(error) }) : sonner.error(errorMessage(error))),
};

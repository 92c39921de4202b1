import { toast as sonner } from "sonner";
import { errorMessage } from "@/lib/client/api";

/** The dashboard's toasts: short confirmations, and failures with the server's own message. */
export const toast = {
  success: (message: string, description?: string) => sonner.success(message, { description }),
  info: (message: string, description?: string) => sonner(message, { description }),
  error: (error: unknown, title?: string) => (title ? sonner.error(title, { description: errorMessage(error) }) : sonner.error(errorMessage(error))),
};

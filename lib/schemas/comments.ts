import { z } from "zod";
import { dateTime, id, limits, requiredText } from "./common";

export const emailCommentParams = z.object({ emailId: id });

export const createCommentInput = z.object({
  content: requiredText(limits.comment).refine((content) => content === "" || content.trim() !== "", "must not be blank"),
});
export type CreateCommentInput = z.infer<typeof createCommentInput>;

export const comment = z.object({
  id,
  email_id: id,
  organization_id: id,
  user_id: id,
  content: z.string(),
  author: z.object({ name: z.string(), email: z.string() }).meta({ description: "The member who wrote it." }),
  created_at: dateTime,
  updated_at: dateTime,
});
comment.register(z.globalRegistry, { id: "Comment" });

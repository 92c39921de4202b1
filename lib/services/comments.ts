import type { OrgContext } from "@/lib/domain/context";
import { notFound } from "@/lib/domain/errors";
import { db } from "@/lib/db";
import type { EmailComment } from "@/lib/generated/prisma/client";
import type { CreateCommentInput } from "@/lib/schemas/comments";

type CommentRow = EmailComment & { user: { name: string; email: string } };

const serialize = ({ user, ...comment }: CommentRow) => ({ ...comment, author: { name: user.name, email: user.email } });

const author = { user: { select: { name: true, email: true } } } as const;

async function assertEmail(ctx: OrgContext, emailId: string) {
  const found = await db.email.findFirst({ where: { id: emailId, organization_id: ctx.organizationId }, select: { id: true } });
  if (!found) throw notFound("Email");
}

export async function createComment(ctx: OrgContext, emailId: string, input: CreateCommentInput) {
  await assertEmail(ctx, emailId);
  const row = await db.emailComment.create({
    data: { email_id: emailId, organization_id: ctx.organizationId, user_id: ctx.userId, content: input.content },
    include: author,
  });
  return serialize(row);
}

export async function listComments(ctx: OrgContext, emailId: string) {
  await assertEmail(ctx, emailId);
  const rows = await db.emailComment.findMany({
    where: { email_id: emailId, organization_id: ctx.organizationId },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
    include: author,
  });
  return { object: "list" as const, has_more: false, data: rows.map(serialize) };
}

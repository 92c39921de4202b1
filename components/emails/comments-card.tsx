"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { MessageSquare } from "lucide-react";
import { useForm } from "react-hook-form";
import { bodyResolver } from "@/components/ui/body-resolver";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/date";
import { FormError } from "@/components/ui/form-field";
import { ListState } from "@/components/ui/list-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { createCommentInput } from "@/lib/schemas/comments";
import { commentsKey } from "./email-types";

type Values = { content: string };

const resolver = bodyResolver<Values, typeof createCommentInput>(createCommentInput, (values) => values);

function initials(name: string, email: string) {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return email.charAt(0).toUpperCase();
  return (words[0].charAt(0) + (words.length > 1 ? words[words.length - 1].charAt(0) : "")).toUpperCase();
}

/** Internal notes on an email; the recipient never sees them. */
export function CommentsCard({ emailId }: { emailId: string }) {
  const queryClient = useQueryClient();
  const comments = useQuery({
    queryKey: commentsKey(emailId),
    queryFn: async () => (await apiCall("GET /v1/threads/emails/{emailId}/comments", { params: { emailId } })).data,
  });
  const form = useForm<Values>({ resolver, defaultValues: { content: "" } });
  const { errors, isSubmitting } = form.formState;

  const submit = submitToApi(form, ["content"], async (values) => {
    await apiCall("POST /v1/threads/emails/{emailId}/comments", { params: { emailId }, body: values });
    form.reset({ content: "" });
    await queryClient.invalidateQueries({ queryKey: commentsKey(emailId) });
    toast.success("Comment added");
  });

  const list = comments.data ?? [];
  return (
    <Card>
      <CardHeader title="Comments" description="Notes for your team. The recipient never sees them." />
      <ListState
        query={comments}
        loading={<SkeletonRows rows={2} columns={2} />}
        errorTitle="Could not load comments"
        isEmpty={list.length === 0}
        empty={
          <div className="flex items-center gap-2 px-5 py-4 text-sm text-zinc-500">
            <MessageSquare className="size-4 text-zinc-400" aria-hidden />
            No comments yet. Leave a note for whoever picks this up next.
          </div>
        }
      >
        <ol className="flex flex-col gap-4 px-5 py-4" aria-label="Comments">
          {list.map((comment) => (
            <li key={comment.id} className="flex gap-3">
              <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-zinc-800 text-xs font-semibold text-white" aria-hidden>
                {initials(comment.author.name, comment.author.email)}
              </span>
              <div className="min-w-0 flex-1">
                <p className="text-sm">
                  <span className="font-medium text-zinc-900">{comment.author.name || comment.author.email}</span>{" "}
                  <span className="text-xs text-zinc-500">
                    <RelativeTime value={comment.created_at} />
                  </span>
                </p>
                <p className="mt-0.5 text-sm whitespace-pre-wrap text-zinc-700">{comment.content}</p>
              </div>
            </li>
          ))}
        </ol>
      </ListState>
      <CardBody className="border-t border-zinc-100">
        <form onSubmit={submit} noValidate className="flex flex-col gap-2">
          <FormError message={errors.root?.server?.message} />
          <label htmlFor={`comment-${emailId}`} className="sr-only">
            Add a comment
          </label>
          <Textarea
            id={`comment-${emailId}`}
            rows={3}
            placeholder="Add a comment…"
            aria-invalid={errors.content ? true : undefined}
            aria-describedby={errors.content ? `comment-${emailId}-error` : `comment-${emailId}-hint`}
            onKeyDown={(event) => {
              if ((event.metaKey || event.ctrlKey) && event.key === "Enter") {
                event.preventDefault();
                void submit();
              }
            }}
            {...form.register("content")}
          />
          {errors.content?.message && (
            <p id={`comment-${emailId}-error`} role="alert" className="text-[13px] font-medium text-red-600">
              {errors.content.message}
            </p>
          )}
          <div className="flex items-center justify-between gap-3">
            <p id={`comment-${emailId}-hint`} className="text-xs text-zinc-500">
              Ctrl+Enter to post
            </p>
            <Button type="submit" size="sm" loading={isSubmitting}>
              Comment
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

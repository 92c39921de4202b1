"use client";

import { useQueryClient } from "@tanstack/react-query";
import { FolderMinus, FolderPlus, Tag, Tags, Trash2, UserMinus, X } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { NativeSelect } from "@/components/ui/select";
import { TagInput } from "@/components/ui/tag-input";
import { toast } from "@/components/ui/toast";
import { ApiError, apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { useSegments } from "@/lib/client/resources/segments";
import type { ContactBulkAction, ContactBulkJob } from "@/lib/schemas/contact-bulk-actions";
import { contactFilterQuery, type ContactFilters } from "./contact-query";
import { ExportButton } from "./export-button";
import { selectionFilter, tickedFilter } from "./selection-filter";
import { contactsKey } from "./use-contacts";

/** Whom the action is for: the rows ticked, or every contact the list's filters match. */
export type ContactSelection = { contact_ids: string[]; emails: string[]; count: number } | { filters: ContactFilters; count: number };

// The export's `filter` travels in the URL (at most 20 000 characters): ticked rows beyond this many are exported by "select all matching".
const MAX_EXPORT_TICKED = 300;

/** The CSV export's query for the selection: the list's own filters, or the ticked addresses. */
const exportQuery = (selection: ContactSelection) =>
  "filters" in selection ? contactFilterQuery(selection.filters) : { filter: JSON.stringify(tickedFilter(selection.emails)) };

type Ask = { action: ContactBulkAction; segment_id?: string; tags?: string[] };

const DONE: Record<ContactBulkAction, string> = {
  add_to_segment: "added to the segment",
  remove_from_segment: "removed from the segment",
  add_tags: "tagged",
  remove_tags: "untagged",
  unsubscribe: "unsubscribed",
  delete: "deleted",
};

const plural = (n: number) => `${n.toLocaleString("en")} contact${n === 1 ? "" : "s"}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Follows a background job in one toast that fills as it goes, until it completes or fails. */
async function followJob(job: ContactBulkJob): Promise<ContactBulkJob> {
  const id = `bulk-${job.id}`;
  for (let current = job; ;) {
    const share = current.total ? Math.floor((current.processed / current.total) * 100) : 0;
    toast.progress(id, `Working on ${plural(current.total)}…`, `${current.processed.toLocaleString("en")} done (${Math.min(share, 100)} %)`);
    if (current.status === "completed" || current.status === "failed") return current;
    await sleep(1000);
    current = await apiCall("GET /v1/contacts/bulk-actions/jobs/{id}", { params: { id: job.id } });
  }
}

/** "Select all N matching", offered once the whole page is ticked and more contacts match. */
type OfferAll = { total: number; select: () => void };

/** The bar over a contacts list with ticked rows: segment, tag, unsubscribe, delete or export them, in one request or a job. */
export function BulkActionsBar({ selection, onClear, offerAll }: { selection: ContactSelection; onClear: () => void; offerAll?: OfferAll }) {
  const queryClient = useQueryClient();
  const segments = useSegments();
  const [dialog, setDialog] = useState<ContactBulkAction | null>(null);
  const [segmentId, setSegmentId] = useState("");
  const [tags, setTags] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const staticSegments = (segments.data ?? []).filter((s) => s.filter === null);

  const run = async (ask: Ask) => {
    setBusy(true);
    const target = "contact_ids" in selection ? { contact_ids: selection.contact_ids } : { filter: selectionFilter(selection.filters) };
    try {
      const answer = await apiCall("POST /v1/contacts/bulk-actions", { body: { ...target, ...ask } });
      const job = answer.job ? await followJob(answer.job) : null;
      const affected = job ? job.affected : answer.affected;
      if (job) toast.dismiss(`bulk-${job.id}`);
      if (job?.status === "failed") toast.error(new Error(job.error ?? "The action stopped"), `Stopped after ${plural(job.affected)}`);
      else toast.success(`${plural(affected)} ${DONE[ask.action]}`, affected < selection.count ? "The others already were, or could not be." : undefined);
      setDialog(null);
      onClear();
    } catch (error) {
      toast.error(error, error instanceof ApiError && error.status === 429 ? "Too many bulk actions at once" : "Could not apply the action");
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: contactsKey });
      void queryClient.invalidateQueries({ queryKey: queryKeys.segments.all() });
    }
  };

  const segmentDialog = dialog === "add_to_segment" || dialog === "remove_from_segment";
  const tagDialog = dialog === "add_tags" || dialog === "remove_tags";
  const who = plural(selection.count);
  return (
    <>
      <div
        role="toolbar"
        aria-label="Selected contacts"
        className="flex flex-wrap items-center gap-2 border-b border-zinc-100 bg-brand-50/60 px-3 py-2 text-[13px]"
      >
        <span className="font-medium text-zinc-900">{who} selected</span>
        <Button variant="ghost" size="sm" onClick={onClear} aria-label="Clear the selection">
          <X aria-hidden />
        </Button>
        <span className="mx-1 h-4 w-px bg-zinc-300" aria-hidden />
        <Button variant="secondary" size="sm" onClick={() => setDialog("add_to_segment")}>
          <FolderPlus aria-hidden />
          Add to segment
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setDialog("remove_from_segment")}>
          <FolderMinus aria-hidden />
          Remove from segment
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setDialog("add_tags")}>
          <Tag aria-hidden />
          Add tags
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setDialog("remove_tags")}>
          <Tags aria-hidden />
          Remove tags
        </Button>
        <Button variant="ghost" size="sm" onClick={() => setDialog("unsubscribe")}>
          <UserMinus aria-hidden />
          Unsubscribe
        </Button>
        <Button variant="ghost" size="sm" className="text-red-700" onClick={() => setDialog("delete")}>
          <Trash2 aria-hidden />
          Delete
        </Button>
        {"filters" in selection || selection.count <= MAX_EXPORT_TICKED ? (
          <ExportButton query={exportQuery(selection)} total={selection.count} />
        ) : (
          <span className="text-zinc-500">To export over {MAX_EXPORT_TICKED} ticked contacts, select all matching.</span>
        )}

        <Dialog
          open={segmentDialog || tagDialog}
          onOpenChange={(open) => !open && !busy && setDialog(null)}
          title={
            dialog === "add_to_segment"
              ? `Add ${who} to a segment`
              : dialog === "remove_from_segment"
                ? `Remove ${who} from a segment`
                : dialog === "add_tags"
                  ? `Tag ${who}`
                  : `Remove tags from ${who}`
          }
          footer={
            <>
              <Button variant="secondary" onClick={() => setDialog(null)} disabled={busy}>
                Cancel
              </Button>
              <Button
                loading={busy}
                disabled={segmentDialog ? !segmentId : tags.length === 0}
                onClick={() => dialog && void run(segmentDialog ? { action: dialog, segment_id: segmentId } : { action: dialog, tags })}
              >
                {dialog === "add_to_segment" ? "Add" : dialog === "add_tags" ? "Add tags" : "Remove"}
              </Button>
            </>
          }
        >
          {segmentDialog ? (
            <FormField
              label="Segment"
              hint={
                staticSegments.length ? "Static segments only: a dynamic one's members follow its filter." : "No static segment yet: create one under Segments."
              }
            >
              <NativeSelect
                value={segmentId}
                onChange={(event) => setSegmentId(event.target.value)}
                options={[{ value: "", label: "Choose a segment" }, ...staticSegments.map((s) => ({ value: s.id, label: s.name }))]}
              />
            </FormField>
          ) : (
            <FormField label="Tags" hint="Lowercase; press Enter or comma to add.">
              <TagInput value={tags} onChange={setTags} placeholder="vip, spring" aria-label="Tags" />
            </FormField>
          )}
        </Dialog>
        <ConfirmDialog
          open={dialog === "unsubscribe" || dialog === "delete"}
          onOpenChange={(open) => !open && setDialog(null)}
          title={dialog === "delete" ? `Delete ${who}?` : `Unsubscribe ${who}?`}
          description={
            dialog === "delete"
              ? "They are removed from every segment and receive nothing more. Emails already sent to them stay in the Emails list. This cannot be undone."
              : "They receive no more marketing email until they subscribe again."
          }
          confirmLabel={dialog === "delete" ? `Delete ${who}` : `Unsubscribe ${who}`}
          onConfirm={() => (dialog ? run({ action: dialog }) : undefined)}
        />
      </div>
      {offerAll && (
        <p className="border-b border-zinc-100 px-3 py-2 text-[13px] text-zinc-700">
          The {selection.count} contacts on this page are selected.{" "}
          <button type="button" className="font-medium text-brand-700 hover:underline" onClick={offerAll.select}>
            Select all {offerAll.total.toLocaleString("en")} matching
          </button>
        </p>
      )}
    </>
  );
}

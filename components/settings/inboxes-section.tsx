"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Inbox as InboxIcon, Pause, Play, Plug, Plus, RefreshCw } from "lucide-react";
import { useState } from "react";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DropdownMenuItem } from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { RowActions, RowDeleteItem, RowEditItem } from "@/components/ui/row-actions";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsHeaderCell, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { InboxFormDialog } from "./inbox-form-dialog";
import { InboxVerification } from "./inbox-verification";
import { useInboxes, type Inbox } from "@/lib/client/resources/inboxes";
import { canManage, useSessionInfo } from "@/lib/client/session";
import { OAuthConnectButtons, OAuthResultNote, oauthStartUrl, type OAuthProviderOption } from "./oauth-connect";

export function InboxesSection({ oauthProviders = [] }: { oauthProviders?: OAuthProviderOption[] }) {
  const queryClient = useQueryClient();
  const inboxes = useInboxes();
  const { data: session } = useSessionInfo();
  const canConnect = canManage(session?.role);
  const providers = canConnect ? oauthProviders : [];
  const [editing, setEditing] = useState<Inbox | null>(null);
  const [formOpen, setFormOpen] = useState(false);

  const openForm = (inbox: Inbox | null) => {
    setEditing(inbox);
    setFormOpen(true);
  };

  const deleting = useDeleteAction<Inbox>({
    run: (inbox) => apiCall("DELETE /v1/inboxes/{id}", { params: { id: inbox.id } }),
    done: (inbox) => `Deleted ${inbox.name}`,
    failure: "Could not delete the inbox",
    invalidate: [queryKeys.inboxes.all()],
  });

  const setPaused = async (inbox: Inbox, paused: boolean) => {
    try {
      await apiCall("PUT /v1/inboxes/{id}", { params: { id: inbox.id }, body: { paused } });
      toast.success(
        paused ? `Paused ${inbox.name}` : `Resumed ${inbox.name}`,
        paused ? "It sends nothing until you resume it." : "Rotation and sequences use it again.",
      );
    } catch (error) {
      toast.error(error, paused ? "Could not pause the inbox" : "Could not resume the inbox");
    }
    await queryClient.invalidateQueries({ queryKey: queryKeys.inboxes.all() });
  };

  const test = async (inbox: Inbox) => {
    try {
      await apiCall("POST /v1/inboxes/{id}/test", { params: { id: inbox.id } });
      toast.success(`${inbox.name} connects`, inbox.status === "error" ? "It sends and reads replies again." : "Its servers took the sign-in.");
    } catch (error) {
      toast.error(error, `${inbox.name} could not connect`);
    }
    await queryClient.invalidateQueries({ queryKey: queryKeys.inboxes.all() });
  };

  const rows = inboxes.data ?? [];
  const addButton = (
    <div className="flex flex-wrap gap-2">
      <OAuthConnectButtons providers={providers} />
      <Button onClick={() => openForm(null)}>
        <Plus aria-hidden />
        Connect inbox
      </Button>
    </div>
  );

  return (
    <Card>
      <CardHeader
        title="Inboxes"
        description="Mailboxes your sequences send from, with their daily limits. Broadcasts can rotate across several."
        actions={rows.length ? addButton : undefined}
      />
      <OAuthResultNote providers={oauthProviders} canConnect={canConnect} />
      <ListState
        query={inboxes}
        loading={<SkeletonRows rows={2} columns={5} />}
        errorTitle="Could not load inboxes"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState icon={InboxIcon} title="No inboxes connected" action={addButton}>
            Connect a mailbox with its SMTP settings to send sequences from it. Add IMAP too, so replies stop the sequence. An inbox sends once its address is
            confirmed, or is at a verified domain.
          </EmptyState>
        }
      >
        <Table>
          <TableHead>
            <tr>
              <TableHeaderCell>Inbox</TableHeaderCell>
              <TableHeaderCell>Sender</TableHeaderCell>
              <TableHeaderCell>SMTP</TableHeaderCell>
              <TableHeaderCell>Replies</TableHeaderCell>
              <TableHeaderCell className="text-right">Daily limit</TableHeaderCell>
              <TableActionsHeaderCell className="w-14" />
            </tr>
          </TableHead>
          <TableBody>
            {rows.map((inbox) => (
              <TableRow key={inbox.id}>
                <TableCell>
                  <div className="flex items-center gap-2">
                    <p className="font-medium text-zinc-900">{inbox.name}</p>
                    {inbox.paused && <StatusBadge status="paused" />}
                    {inbox.status === "error" ? (
                      <Badge tone="danger" title={inbox.last_error ?? undefined}>
                        Stopped
                      </Badge>
                    ) : (
                      inbox.last_error && (
                        <Badge tone="danger" title={inbox.last_error}>
                          Error
                        </Badge>
                      )
                    )}
                    {inbox.auth.type === "oauth2" && <Badge>{inbox.auth.provider === "google" ? "Google" : "Microsoft"}</Badge>}
                  </div>
                  <p className="text-[13px] text-zinc-500">{inbox.from_name ? `${inbox.from_name} <${inbox.from_email}>` : inbox.from_email}</p>
                  {inbox.status === "error" && (
                    <p className="mt-1 text-[13px] text-red-800" role="note">
                      Stopped sending and reading replies: {inbox.last_error ?? "its servers kept failing"}.{" "}
                      {inbox.auth.type === "oauth2" ? "Reconnect it, or test it once fixed." : "Fix its settings, or test it once fixed."}
                    </p>
                  )}
                  {inbox.paused_reason === "bounce_rate" && (
                    <p className="mt-1 text-[13px] text-amber-800" role="note">
                      Paused itself: too many of its recent emails hard-bounced. Clean the lists it sends to, then{" "}
                      {canConnect ? "resume it" : "ask an admin or owner to resume it"}.
                    </p>
                  )}
                </TableCell>
                <TableCell>
                  <InboxVerification inbox={inbox} />
                </TableCell>
                <TableCell>
                  <code className="font-mono text-[13px] text-zinc-600">
                    {inbox.smtp.host}:{inbox.smtp.port}
                  </code>
                </TableCell>
                <TableCell>{inbox.imap ? <Badge tone="success">IMAP</Badge> : <span className="text-[13px] text-zinc-400">Not read</span>}</TableCell>
                <TableCell className="text-right tabular-nums">{inbox.daily_limit.toLocaleString()}</TableCell>
                <TableCell className="text-right">
                  <RowActions name={inbox.name}>
                    <RowEditItem onSelect={() => openForm(inbox)} />
                    <DropdownMenuItem onSelect={() => void test(inbox)}>
                      <Plug aria-hidden />
                      Test connection
                    </DropdownMenuItem>
                    {inbox.auth.type === "oauth2" && canConnect && (
                      <DropdownMenuItem
                        onSelect={() => window.location.assign(oauthStartUrl(inbox.auth.type === "oauth2" ? inbox.auth.provider : "", { inbox_id: inbox.id }))}
                      >
                        <RefreshCw aria-hidden />
                        Reconnect
                      </DropdownMenuItem>
                    )}
                    {/* The service refuses a member's resume of what the bounce breaker paused; offering it would only fail. */}
                    {!(inbox.paused_reason === "bounce_rate" && !canConnect) && (
                      <DropdownMenuItem onSelect={() => void setPaused(inbox, !inbox.paused)}>
                        {inbox.paused ? <Play aria-hidden /> : <Pause aria-hidden />}
                        {inbox.paused ? "Resume sending" : "Pause sending"}
                      </DropdownMenuItem>
                    )}
                    <RowDeleteItem onSelect={() => deleting.ask(inbox)} />
                  </RowActions>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListState>
      <InboxFormDialog
        open={formOpen}
        inbox={editing}
        onOpenChange={setFormOpen}
        onSaved={() => {
          setFormOpen(false);
          void queryClient.invalidateQueries({ queryKey: queryKeys.inboxes.all() });
        }}
      />
      <ConfirmDialog
        {...deleting.dialog}
        title={`Delete ${deleting.target?.name ?? "inbox"}?`}
        description="Broadcasts and templates that use it stop naming it, and sequences no longer send from it. Emails already sent keep their history."
        confirmLabel="Delete inbox"
      />
    </Card>
  );
}

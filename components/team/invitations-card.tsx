"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { MailPlus, RotateCw, X } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsHeaderCell, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { apiCall } from "@/lib/client/api";
import { invitationsKey, type Invitation } from "./types";

/** Pending invitations with resend and cancel; only owners and admins see it (the list needs that role). */
export function InvitationsCard() {
  const queryClient = useQueryClient();
  const invitations = useQuery({ queryKey: invitationsKey, queryFn: () => apiCall("GET /v1/invitations") });
  const [resending, setResending] = useState<string | null>(null);

  const resend = async (invitation: Invitation) => {
    setResending(invitation.id);
    try {
      await apiCall("POST /v1/invitations/{id}/resend", { params: { id: invitation.id } });
      toast.success(`Invitation sent again to ${invitation.email}`, "The new link works for 7 days; the old one no longer does.");
      await queryClient.invalidateQueries({ queryKey: invitationsKey });
    } catch (error) {
      toast.error(error, "Could not resend the invitation");
    } finally {
      setResending(null);
    }
  };

  const cancelling = useDeleteAction<Invitation>({
    run: (invitation) => apiCall("DELETE /v1/invitations/{id}", { params: { id: invitation.id } }),
    done: (invitation) => `Cancelled the invitation to ${invitation.email}`,
    failure: "Could not cancel the invitation",
    invalidate: [invitationsKey],
  });

  const list = invitations.data?.invitations ?? [];
  return (
    <Card>
      <CardHeader title="Pending invitations" description="Invitations that have not been accepted yet." />
      <ListState
        query={invitations}
        loading={<SkeletonRows rows={2} columns={4} />}
        errorTitle="Could not load invitations"
        isEmpty={list.length === 0}
        empty={
          <EmptyState icon={MailPlus} title="No pending invitations" className="py-10">
            Invite a teammate with the form above. Their invitation shows here until they accept it.
          </EmptyState>
        }
      >
        <Table>
          <TableHead>
            <tr>
              <TableHeaderCell>Email</TableHeaderCell>
              <TableHeaderCell className="w-28">Role</TableHeaderCell>
              <TableHeaderCell>Invited by</TableHeaderCell>
              <TableHeaderCell className="w-32">Expires</TableHeaderCell>
              <TableActionsHeaderCell className="w-52" />
            </tr>
          </TableHead>
          <TableBody>
            {list.map((invitation) => (
              <TableRow key={invitation.id}>
                <TableCell className="font-medium text-zinc-900">{invitation.email}</TableCell>
                <TableCell>
                  <Badge tone={invitation.role === "admin" ? "info" : "neutral"} className="capitalize">
                    {invitation.role}
                  </Badge>
                </TableCell>
                <TableCell className="text-zinc-500">{invitation.inviter_name || invitation.inviter_email}</TableCell>
                <TableCell className="text-zinc-500">
                  <RelativeTime value={invitation.expires_at} />
                </TableCell>
                <TableCell>
                  <div className="flex justify-end gap-1.5">
                    <Button
                      variant="secondary"
                      size="sm"
                      loading={resending === invitation.id}
                      onClick={() => void resend(invitation)}
                      aria-label={`Resend invitation to ${invitation.email}`}
                    >
                      {resending !== invitation.id && <RotateCw aria-hidden />}
                      Resend
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => cancelling.ask(invitation)}
                      aria-label={`Cancel invitation to ${invitation.email}`}
                      className="text-red-600 hover:bg-red-50 hover:text-red-700"
                    >
                      <X aria-hidden />
                      Cancel
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListState>
      <ConfirmDialog
        {...cancelling.dialog}
        title="Cancel this invitation?"
        description={`The link sent to ${cancelling.target?.email ?? "them"} stops working. You can invite them again later.`}
        confirmLabel="Cancel invitation"
        cancelLabel="Keep invitation"
      />
    </Card>
  );
}

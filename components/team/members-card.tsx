"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { LogOut, UserMinus, Users } from "lucide-react";
import { useRouter } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { RelativeTime } from "@/components/ui/date";
import { DropdownMenuItem } from "@/components/ui/dropdown-menu";
import { EmptyState } from "@/components/ui/empty-state";
import { ListState } from "@/components/ui/list-state";
import { RowActions } from "@/components/ui/row-actions";
import { NativeSelect } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsHeaderCell, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import { useConfirmTarget } from "@/components/ui/use-confirm-target";
import { apiCall } from "@/lib/client/api";
import { canManage, sessionQueryKey, type Role, type SessionInfo } from "@/lib/client/session";
import { membersKey, roleOptions, type Member } from "./types";

function Person({ member, isYou }: { member: Member; isYou: boolean }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-zinc-100 text-xs font-semibold text-zinc-600" aria-hidden>
        {(member.name || member.email).charAt(0).toUpperCase()}
      </span>
      <div className="min-w-0">
        <p className="truncate font-medium text-zinc-900">
          {member.name || member.email}
          {isYou && <span className="ml-1.5 font-normal text-zinc-400">(you)</span>}
        </p>
        {member.name && <p className="truncate text-[13px] text-zinc-500">{member.email}</p>}
      </div>
    </div>
  );
}

export function MembersCard({ session }: { session: SessionInfo }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const members = useQuery({ queryKey: membersKey, queryFn: () => apiCall("GET /v1/members") });
  const myRole = session.role;
  const manager = canManage(myRole);

  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role }) =>
      apiCall("PUT /v1/members/{userId}", { params: { userId: member.user_id }, body: { role } }),
    onSuccess: (updated) => {
      toast.success(`${updated.name || updated.email} is now ${updated.role === "admin" || updated.role === "owner" ? "an" : "a"} ${updated.role}`);
      if (updated.user_id === session.user.id) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
    onError: (error) => toast.error(error, "Could not change the role"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersKey }),
  });

  const remove = async (member: Member) => {
    const self = member.user_id === session.user.id;
    try {
      await apiCall("DELETE /v1/members/{userId}", { params: { userId: member.user_id } });
    } catch (error) {
      toast.error(error, self ? "Could not leave the organization" : "Could not remove the member");
      throw error;
    }
    if (self) {
      // Every cached answer belonged to the organization just left: start over in another one.
      toast.success("You left the organization");
      router.replace("/");
      router.refresh();
      await queryClient.resetQueries();
      return;
    }
    toast.success(`Removed ${member.name || member.email}`);
    await queryClient.invalidateQueries({ queryKey: membersKey });
  };
  const removing = useConfirmTarget<Member>(remove);

  const editableRole = (member: Member) => manager && (myRole === "owner" || member.role !== "owner");
  const canRemove = (member: Member) => member.user_id === session.user.id || (manager && (myRole === "owner" || member.role !== "owner"));
  const rows = members.data?.data ?? [];

  return (
    <Card>
      <CardHeader
        title="Members"
        description={
          members.data
            ? `${members.data.data.length} ${members.data.data.length === 1 ? "person" : "people"} in this organization.`
            : "People in this organization."
        }
      />
      <ListState
        query={members}
        loading={<SkeletonRows rows={3} columns={3} />}
        errorTitle="Could not load members"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState icon={Users} title="No members">
            Invite a teammate to get started.
          </EmptyState>
        }
      >
        <Table>
          <TableHead>
            <tr>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell className="w-44">Role</TableHeaderCell>
              <TableHeaderCell className="w-36">Joined</TableHeaderCell>
              <TableActionsHeaderCell className="w-14" />
            </tr>
          </TableHead>
          <TableBody>
            {rows.map((member) => {
              const isYou = member.user_id === session.user.id;
              return (
                <TableRow key={member.user_id}>
                  <TableCell>
                    <Person member={member} isYou={isYou} />
                  </TableCell>
                  <TableCell>
                    {editableRole(member) ? (
                      <NativeSelect
                        aria-label={`Role of ${member.name || member.email}`}
                        value={member.role}
                        disabled={changeRole.isPending}
                        className="h-8 text-[13px]"
                        options={roleOptions.filter((o) => o.value !== "owner" || myRole === "owner")}
                        onChange={(event) => changeRole.mutate({ member, role: event.target.value as Role })}
                      />
                    ) : (
                      <Badge tone={member.role === "owner" ? "brand" : member.role === "admin" ? "info" : "neutral"} className="capitalize">
                        {member.role}
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell className="text-zinc-500">
                    <RelativeTime value={member.created_at} />
                  </TableCell>
                  <TableCell className="text-right">
                    {canRemove(member) && (
                      <RowActions name={member.name || member.email}>
                        <DropdownMenuItem destructive onSelect={() => removing.ask(member)}>
                          {isYou ? <LogOut aria-hidden /> : <UserMinus aria-hidden />}
                          {isYou ? "Leave organization" : "Remove from organization"}
                        </DropdownMenuItem>
                      </RowActions>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </ListState>
      <ConfirmDialog
        {...removing.dialog}
        title={removing.target?.user_id === session.user.id ? "Leave this organization?" : `Remove ${removing.target?.name || removing.target?.email}?`}
        description={
          removing.target?.user_id === session.user.id
            ? "You lose access to its contacts, broadcasts and settings. Someone will have to invite you again to come back."
            : "They lose access right away, and their API keys for this organization stop working. You can invite them again later."
        }
        confirmLabel={removing.target?.user_id === session.user.id ? "Leave organization" : "Remove member"}
      />
    </Card>
  );
}

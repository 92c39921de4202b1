"use client";

import type { z } from "zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound, Plus, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { StatusBadge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { RelativeTime } from "@/components/ui/date";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioCards, type RadioCardOption } from "@/components/ui/radio-cards";
import { NativeSelect } from "@/components/ui/select";
import { ListState } from "@/components/ui/list-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsHeaderCell, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { cn } from "@/lib/client/cn";
import { submitToApi } from "@/lib/client/form-errors";
import { createApiKeyInput, type apiKey, type CreateApiKeyInput, type createdApiKey } from "@/lib/schemas/api-keys";

type ApiKey = z.infer<typeof apiKey>;
type CreatedKey = z.infer<typeof createdApiKey>;

const apiKeysKey = queryKeys.apiKeys.all();

const permissionOptions: RadioCardOption[] = [
  { value: "full_access", label: "Full access", description: "Everything you can do in this organization, with your role." },
  { value: "sending_access", label: "Sending only", description: "Sends email (the API and SMTP) and nothing else: for an application's configuration." },
];

/** The form's values: the domain as a select's string ("" for any), sent as null. */
type KeyForm = { name: string; permission: "full_access" | "sending_access"; domain_id: string };

function CreateKeyDialog({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (open: boolean) => void; onCreated: (key: CreatedKey) => void }) {
  const form = useForm<KeyForm>({ defaultValues: { name: "", permission: "full_access", domain_id: "" } });
  const permission = useWatch({ control: form.control, name: "permission" });
  const domains = useQuery({ queryKey: queryKeys.domains.all(), queryFn: () => apiCall("GET /v1/domains"), enabled: open && permission === "sending_access" });
  const domainOptions = [{ value: "", label: "Any verified domain" }, ...(domains.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }))];
  const submit = submitToApi(form, ["name", "permission", "domain_id"], async (values) => {
    const body: CreateApiKeyInput =
      values.permission === "sending_access"
        ? { name: values.name, permission: "sending_access", domain_id: values.domain_id || null }
        : { name: values.name, permission: "full_access" };
    const parsed = createApiKeyInput.safeParse(body);
    if (!parsed.success) {
      form.setError("name", { message: parsed.error.issues[0].message });
      return;
    }
    const key = await apiCall("POST /v1/api-keys", { body: parsed.data });
    form.reset();
    onCreated(key);
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Create API key"
      description="The key acts as you, with your role in this organization, or only sends."
      form={form}
      formId="create-api-key"
      onSubmit={submit}
      submitLabel="Create key"
    >
      <FormField label="Name" error={form.formState.errors.name?.message} hint="Something that tells you where it is used, like “Production server”.">
        <Input autoFocus placeholder="Production server" {...form.register("name", { required: "Give the key a name" })} />
      </FormField>
      <div className="flex flex-col gap-1.5">
        <Label id="key-permission-label">Permission</Label>
        <Controller
          control={form.control}
          name="permission"
          render={({ field }) => (
            <RadioCards
              aria-labelledby="key-permission-label"
              value={field.value}
              onValueChange={(value) => field.onChange(value as KeyForm["permission"])}
              options={permissionOptions}
            />
          )}
        />
      </div>
      {permission === "sending_access" && (
        <FormField label="Domain" error={form.formState.errors.domain_id?.message} hint="With a domain, the key sends only from addresses at it.">
          <NativeSelect options={domainOptions} disabled={domains.isPending} {...form.register("domain_id")} />
        </FormField>
      )}
    </FormDialog>
  );
}

/** The new key's token, shown once: the server keeps no copy. */
function TokenDialog({ created, onClose }: { created: CreatedKey | null; onClose: () => void }) {
  return (
    <Dialog
      open={created !== null}
      onOpenChange={(open) => !open && onClose()}
      preventOutsideClose
      title="Copy your new API key"
      description={created ? `“${created.name}” is ready.` : undefined}
      footer={<Button onClick={onClose}>I have copied it</Button>}
    >
      {created && (
        <div className="flex flex-col gap-4">
          <div className="flex items-start gap-2.5 rounded-lg border border-amber-200 bg-amber-50 px-3.5 py-3 text-sm text-amber-900">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
            <p>This is the only time the key is shown. Store it somewhere safe, like a secrets manager. If you lose it, revoke it and create a new one.</p>
          </div>
          <div>
            <p className="mb-1.5 text-sm font-medium text-zinc-800" id="new-token-label">
              API key
            </p>
            <div className="flex items-stretch gap-2">
              <code
                aria-labelledby="new-token-label"
                data-testid="new-api-key-token"
                className="min-w-0 flex-1 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[13px] leading-5 break-all text-zinc-900 select-all"
              >
                {created.token}
              </code>
              <CopyButton value={created.token} what="API key" label="Copy" className="h-auto self-stretch" />
            </div>
          </div>
          <p className="text-[13px] text-zinc-500">
            Send it as <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-xs text-zinc-700">Authorization: Bearer &lt;key&gt;</code> on every /v1
            request.
          </p>
        </div>
      )}
    </Dialog>
  );
}

/** "Full access", "Sending only", or "Sending from example.com". */
function accessOf(key: ApiKey, domainNames: Map<string, string>): string {
  if (key.permission === "full_access") return "Full access";
  if (!key.domain_id) return "Sending only";
  return `Sending from ${domainNames.get(key.domain_id) ?? "one domain"}`;
}

export function ApiKeysSection() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: apiKeysKey, queryFn: () => apiCall("GET /v1/api-keys") });
  const scoped = (keys.data?.data ?? []).some((key) => key.domain_id);
  const domains = useQuery({ queryKey: queryKeys.domains.all(), queryFn: () => apiCall("GET /v1/domains"), enabled: scoped });
  const domainNames = new Map((domains.data?.data ?? []).map((d) => [d.id, d.name]));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey | null>(null);

  const revoking = useDeleteAction<ApiKey>({
    run: (key) => apiCall("DELETE /v1/api-keys/{id}", { params: { id: key.id } }),
    done: (key) => [`Revoked “${key.name}”`, "Requests with this key are refused from now on."],
    failure: "Could not revoke the key",
    invalidate: [apiKeysKey],
  });

  const rows = keys.data?.data ?? [];
  const createButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden />
      Create API key
    </Button>
  );

  return (
    <Card>
      <CardHeader
        title="API keys"
        description="Programs use these to call the /v1 API as you, with your role."
        actions={rows.length ? createButton : undefined}
      />
      <ListState
        query={keys}
        loading={<SkeletonRows rows={2} columns={5} />}
        errorTitle="Could not load API keys"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState icon={KeyRound} title="No API keys yet" action={createButton}>
            Create a key to send email, sync contacts or start broadcasts from your own code.
          </EmptyState>
        }
      >
        <Table>
          <TableHead>
            <tr>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell>Key</TableHeaderCell>
              <TableHeaderCell>Access</TableHeaderCell>
              <TableHeaderCell>Created</TableHeaderCell>
              <TableHeaderCell>Last used</TableHeaderCell>
              <TableActionsHeaderCell className="w-28" />
            </tr>
          </TableHead>
          <TableBody>
            {rows.map((key) => (
              <TableRow key={key.id} className={cn(key.revoked_at && "text-zinc-400")}>
                <TableCell className={cn("font-medium", key.revoked_at ? "text-zinc-400" : "text-zinc-900")}>{key.name}</TableCell>
                <TableCell>
                  <code className="font-mono text-[13px] text-zinc-500">••••{key.token_hint}</code>
                </TableCell>
                <TableCell className="text-[13px] text-zinc-600">{accessOf(key, domainNames)}</TableCell>
                <TableCell className="text-zinc-500">
                  <RelativeTime value={key.created_at} />
                </TableCell>
                <TableCell className="text-zinc-500">
                  <RelativeTime value={key.last_used_at} fallback="Never" />
                </TableCell>
                <TableCell className="text-right">
                  {key.revoked_at ? (
                    <StatusBadge status="revoked" />
                  ) : (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-red-600 hover:bg-red-50 hover:text-red-700"
                      onClick={() => revoking.ask(key)}
                      aria-label={`Revoke ${key.name}`}
                    >
                      Revoke
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ListState>
      <CreateKeyDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(key) => {
          setCreating(false);
          setCreated(key);
          void queryClient.invalidateQueries({ queryKey: apiKeysKey });
        }}
      />
      <TokenDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        {...revoking.dialog}
        title={`Revoke “${revoking.target?.name ?? ""}”?`}
        description="Programs using this key get 401 Unauthorized from their next request on. This cannot be undone."
        confirmLabel="Revoke key"
      />
    </Card>
  );
}

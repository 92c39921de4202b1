"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDown, Globe, Plus, ShieldCheck, Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Callout } from "@/components/ui/callout";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { RelativeTime } from "@/components/ui/date";
import { EmptyState } from "@/components/ui/empty-state";
import { focusRing } from "@/components/ui/focus-ring";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { ListState } from "@/components/ui/list-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { toast } from "@/components/ui/toast";
import { useDeleteAction } from "@/components/ui/use-delete-action";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { cn } from "@/lib/client/cn";
import { submitToApi } from "@/lib/client/form-errors";
import { formResolver } from "@/lib/client/form-resolver";
import type { z } from "zod";
import { createDomainInput, updateDomainInput, type domain as domainSchema } from "@/lib/schemas/domains";
import { bodyResolver } from "@/components/ui/body-resolver";

type Domain = z.infer<typeof domainSchema>;
type DnsRecord = Domain["records"][number];

const domainsKey = queryKeys.domains.all();

const purposes: Record<DnsRecord["purpose"], string> = {
  ownership: "Proves you own the domain",
  dkim: "Signs your email (DKIM)",
  return_path: "Receives bounces (return path)",
  return_path_spf: "Authorizes our relay (SPF)",
  dmarc: "Tells receivers your policy (DMARC)",
  tracking: "Serves your tracked links (CNAME)",
};

const needsAttention = (domain: Domain) =>
  domain.status !== "verified" || domain.warnings.length > 0 || domain.records.some((record) => record.status !== "verified");

const statusWords: Record<DnsRecord["status"], string> = { verified: "Verified", pending: "Pending", mismatch: "Mismatch" };

function AddDomainDialog({ open, onOpenChange, onAdded }: { open: boolean; onOpenChange: (open: boolean) => void; onAdded: (domain: Domain) => void }) {
  const form = useForm<{ name: string }>({ resolver: formResolver(createDomainInput), defaultValues: { name: "" } });
  const submit = submitToApi(form, ["name"], async (values) => {
    const domain = await apiCall("POST /v1/domains", { body: values });
    form.reset();
    onAdded(domain);
  });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add a domain"
      description="Send from addresses at a domain you own. You will publish a few DNS records to verify it."
      form={form}
      formId="add-domain"
      onSubmit={submit}
      submitLabel="Add domain"
    >
      <FormField
        label="Domain"
        error={form.formState.errors.name?.message}
        hint="Use a subdomain such as mail.example.com to keep your main domain's reputation separate."
      >
        <Input autoFocus placeholder="example.com" autoCapitalize="none" spellCheck={false} {...form.register("name")} />
      </FormField>
    </FormDialog>
  );
}

function RecordStatus({ record }: { record: DnsRecord }) {
  return (
    <div className="flex flex-col items-start gap-1">
      <Badge tone={record.status === "verified" ? "success" : record.status === "mismatch" ? "danger" : "warning"} dot>
        {statusWords[record.status]}
      </Badge>
      {record.status !== "verified" && record.reason && <p className="text-xs text-zinc-500">{record.reason}</p>}
      {record.status === "mismatch" && record.found.length > 0 && (
        <p className="text-xs text-zinc-500">
          Found:{" "}
          {record.found.map((value) => (
            <code key={value} className="block font-mono text-[11px] break-all text-red-700">
              {value}
            </code>
          ))}
        </p>
      )}
    </div>
  );
}

function RecordsTable({ records }: { records: DnsRecord[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200">
      <table className="w-full min-w-[760px] table-fixed text-left text-sm">
        <colgroup>
          <col className="w-52" />
          <col className="w-[28%]" />
          <col />
          <col className="w-36" />
        </colgroup>
        <thead className="bg-zinc-50 text-xs text-zinc-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Type
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Name
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Value
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Status
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {records.map((record) => (
            <tr key={`${record.purpose}-${record.name}`} className="align-top" data-purpose={record.purpose}>
              <td className="px-3 py-2.5">
                <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">{record.type}</span>
                {record.priority !== undefined && <span className="ml-1.5 text-xs text-zinc-500">priority {record.priority}</span>}
                <p className="mt-1.5 text-xs whitespace-nowrap text-zinc-500">{purposes[record.purpose]}</p>
              </td>
              <td className="px-3 py-2.5">
                <div className="flex items-start gap-1.5">
                  <code className="min-w-0 font-mono text-[13px] text-zinc-800 [overflow-wrap:anywhere]">{record.name}</code>
                  <CopyButton value={record.name} what={`${record.purpose} record name`} variant="ghost" className="-mt-1.5 shrink-0" />
                </div>
              </td>
              <td className="px-3 py-2.5">
                <div className="flex items-start gap-1.5">
                  <code className="line-clamp-3 min-w-0 font-mono text-[13px] break-all text-zinc-800" title={record.value}>
                    {record.value}
                  </code>
                  <CopyButton value={record.value} what={`${record.purpose} record value`} variant="ghost" className="-mt-1.5 shrink-0" />
                </div>
              </td>
              <td className="px-3 py-2.5">
                <RecordStatus record={record} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type TrackingForm = { tracking_subdomain: string };
const trackingBody = (values: TrackingForm) => ({ tracking_subdomain: values.tracking_subdomain.trim() === "" ? null : values.tracking_subdomain });
const trackingResolver = bodyResolver<TrackingForm, typeof updateDomainInput>(updateDomainInput, trackingBody);

/** The domain's tracking subdomain: set, changed or removed; its CNAME then shows among the records. */
function TrackingSubdomain({ domain }: { domain: Domain }) {
  const queryClient = useQueryClient();
  const values = { tracking_subdomain: domain.tracking_subdomain ?? "" };
  const form = useForm<TrackingForm>({ resolver: trackingResolver, values });
  const submit = submitToApi(form, ["tracking_subdomain"], async (input) => {
    const saved = await apiCall("PUT /v1/domains/{id}", { params: { id: domain.id }, body: trackingBody(input) });
    await queryClient.invalidateQueries({ queryKey: domainsKey });
    if (saved.tracking_subdomain)
      toast.success(`Tracking host ${saved.tracking_subdomain}.${saved.name}`, "Publish its CNAME record below, then check the records.");
    else toast.success("Tracking host removed", `Links in mail from ${saved.name} use the platform's host.`);
  });
  const host = domain.tracking_subdomain ? `${domain.tracking_subdomain}.${domain.name}` : null;
  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-2 rounded-lg border border-zinc-200 px-4 py-3"
      aria-label={`Tracking subdomain of ${domain.name}`}
    >
      <div className="flex flex-wrap items-end gap-2">
        <FormField label="Tracking subdomain" error={form.formState.errors.tracking_subdomain?.message} className="w-56">
          <Input placeholder="links" autoCapitalize="none" spellCheck={false} {...form.register("tracking_subdomain")} />
        </FormField>
        <span className="pb-2 font-mono text-[13px] text-zinc-500">.{domain.name}</span>
        <Button type="submit" variant="secondary" size="sm" className="mb-0.5" loading={form.formState.isSubmitting} disabled={!form.formState.isDirty}>
          Save
        </Button>
      </div>
      <p role="status" className="text-xs text-zinc-500">
        {!host
          ? "Links and the open pixel of mail from this domain use the platform's host. Give a subdomain to use your own."
          : domain.tracking_active
            ? `Links and the open pixel of mail from this domain use https://${host}/.`
            : `Not in use yet: publish the CNAME record for ${host}${domain.status === "verified" ? "" : " and verify the domain"}, then check the records.`}
      </p>
    </form>
  );
}

function DomainRow({ domain, expanded, onToggle, onDelete }: { domain: Domain; expanded: boolean; onToggle: () => void; onDelete: () => void }) {
  const queryClient = useQueryClient();
  const [verifying, setVerifying] = useState(false);
  const [lastReason, setLastReason] = useState<string | null>(null);
  const verify = async () => {
    setVerifying(true);
    try {
      const result = await apiCall("POST /v1/domains/{id}/verify", { params: { id: domain.id } });
      const waiting = result.records.filter((record) => record.status !== "verified").length;
      if (result.verification.found) {
        setLastReason(null);
        if (waiting === 0) toast.success(`${domain.name} is verified`, "Every record is published: mail is signed and bounces come back to us.");
        else toast.info(`${domain.name} is verified`, `${waiting} of its records ${waiting === 1 ? "is" : "are"} not published yet; see each record's status.`);
      } else {
        setLastReason(result.verification.reason);
        toast.info(
          `${domain.name} is not verified yet`,
          result.verification.reason ?? "The ownership record was not found. DNS changes can take a while to spread.",
        );
      }
      await queryClient.invalidateQueries({ queryKey: domainsKey });
    } catch (error) {
      toast.error(error, "Could not check the domain");
    } finally {
      setVerifying(false);
    }
  };
  const panelId = `domain-records-${domain.id}`;
  return (
    <li className="px-5 py-4">
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={expanded}
          aria-controls={panelId}
          className={cn("-ml-1 flex min-w-0 flex-1 items-center gap-2 rounded-md px-1 py-0.5 text-left", focusRing)}
        >
          <ChevronDown className={cn("size-4 shrink-0 text-zinc-400 transition-transform", !expanded && "-rotate-90")} aria-hidden />
          <span className="truncate font-medium text-zinc-900">{domain.name}</span>
          <StatusBadge status={domain.status} />
          <span className="hidden text-[13px] text-zinc-500 sm:inline">
            {domain.verified_at ? (
              <>
                verified <RelativeTime value={domain.verified_at} />
              </>
            ) : (
              <>
                added <RelativeTime value={domain.created_at} />
              </>
            )}
          </span>
        </button>
        <div className="flex items-center gap-1.5">
          <Button
            variant="secondary"
            size="sm"
            loading={verifying}
            onClick={() => void verify()}
            aria-label={`${domain.status === "verified" ? "Check the records of" : "Verify"} ${domain.name}`}
          >
            {!verifying && <ShieldCheck aria-hidden />}
            {domain.status === "verified" ? "Check records" : "Verify"}
          </Button>
          <Button
            variant="ghost"
            size="icon"
            onClick={onDelete}
            aria-label={`Delete ${domain.name}`}
            className="text-zinc-500 hover:bg-red-50 hover:text-red-600"
          >
            <Trash2 aria-hidden />
          </Button>
        </div>
      </div>
      {expanded && (
        <div id={panelId} className="mt-4 flex flex-col gap-3 pl-6">
          {domain.status !== "verified" && (
            <p className="text-sm text-zinc-600">
              Add these records at your DNS provider, then press <span className="font-medium">Verify</span>. Changes usually show up within minutes, sometimes
              hours.
            </p>
          )}
          {lastReason && (
            <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-[13px] text-amber-900">
              Last check: {lastReason}
            </p>
          )}
          {domain.warnings.map((warning) => (
            <Callout key={warning.code} tone="danger" title={warning.code === "SPF_CONFLICT" ? "Conflicting SPF record" : "Several DMARC records"}>
              {warning.message}
              {warning.found.map((value) => (
                <code key={value} className="mt-1 block font-mono text-xs break-all">
                  {value}
                </code>
              ))}
            </Callout>
          ))}
          <TrackingSubdomain domain={domain} />
          <RecordsTable records={domain.records} />
          <p className="text-xs text-zinc-500">
            Mail is DKIM-signed once the DKIM record is verified, and relay mail uses <code className="font-mono">{domain.return_path}</code> as its return path
            once its MX and SPF records are. DMARC: start with <code className="font-mono">p=none</code> and read the reports; move to{" "}
            <code className="font-mono">p=quarantine</code> once everything you send passes. Verified domains are checked again every day.
          </p>
        </div>
      )}
    </li>
  );
}

export function DomainsSection() {
  const queryClient = useQueryClient();
  const domains = useQuery({ queryKey: domainsKey, queryFn: () => apiCall("GET /v1/domains") });
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<Record<string, boolean>>({});

  const deleting = useDeleteAction<Domain>({
    run: (domain) => apiCall("DELETE /v1/domains/{id}", { params: { id: domain.id } }),
    done: (domain) => `Deleted ${domain.name}`,
    failure: "Could not delete the domain",
    invalidate: [domainsKey],
  });

  const rows = domains.data?.data ?? [];
  const addButton = (
    <Button onClick={() => setAdding(true)}>
      <Plus aria-hidden />
      Add domain
    </Button>
  );

  return (
    <Card>
      <CardHeader
        title="Domains"
        description="Verified domains you can send from. Templates and broadcasts need a verified sender domain."
        actions={rows.length ? addButton : undefined}
      />
      <ListState
        query={domains}
        loading={<SkeletonRows rows={2} columns={3} />}
        errorTitle="Could not load domains"
        isEmpty={rows.length === 0}
        empty={
          <EmptyState icon={Globe} title="No domains yet" action={addButton}>
            Add the domain you send from, publish its DNS records and verify it. Then every address at it can send.
          </EmptyState>
        }
      >
        <ul className="divide-y divide-zinc-100">
          {rows.map((domain) => (
            <DomainRow
              key={domain.id}
              domain={domain}
              // Domains with a record still to publish open by default: those records are what the user needs next.
              expanded={open[domain.id] ?? needsAttention(domain)}
              onToggle={() => setOpen((state) => ({ ...state, [domain.id]: !(state[domain.id] ?? needsAttention(domain)) }))}
              onDelete={() => deleting.ask(domain)}
            />
          ))}
        </ul>
      </ListState>
      <AddDomainDialog
        open={adding}
        onOpenChange={setAdding}
        onAdded={(domain) => {
          setAdding(false);
          toast.success(`Added ${domain.name}`, "Publish its DNS records, then verify it.");
          void queryClient.invalidateQueries({ queryKey: domainsKey });
        }}
      />
      <ConfirmDialog
        {...deleting.dialog}
        title={`Delete ${deleting.target?.name ?? "domain"}?`}
        description="Templates and broadcasts can no longer send from addresses at this domain until you add and verify it again."
        confirmLabel="Delete domain"
      />
    </Card>
  );
}

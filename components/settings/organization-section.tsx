"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardFooter, CardHeader } from "@/components/ui/card";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import { applyServerErrors, submitToApi } from "@/lib/client/form-errors";
import { formResolver } from "@/lib/client/form-resolver";
import { canManage, sessionQueryKey } from "@/lib/client/session";
import { updateOrganizationInput, type OrganizationRecord, type UpdateOrganizationInput } from "@/lib/schemas/organizations";
import { TimeZoneCard } from "./time-zone-card";
import { WithOrganization } from "./with-organization";

/** The wire shape: timestamps arrive as strings. */
type Organization = Omit<OrganizationRecord, "created_at" | "updated_at"> & { created_at: string; updated_at: string };

const organizationKey = queryKeys.organization();

const saveOrganization = (body: UpdateOrganizationInput) => apiCall("PUT /v1/organization", { body });

function NameCard({ organization, editable }: { organization: Organization; editable: boolean }) {
  const queryClient = useQueryClient();
  const router = useRouter();
  const form = useForm<UpdateOrganizationInput>({ resolver: formResolver(updateOrganizationInput), defaultValues: { name: organization.name } });
  const { errors, isSubmitting, isDirty } = form.formState;
  const submit = submitToApi(form, ["name"], async (values) => {
    const saved = await saveOrganization({ name: values.name });
    queryClient.setQueryData(organizationKey, saved);
    form.reset({ name: saved.name });
    toast.success("Organization renamed", `Everyone in it now sees “${saved.name}”.`);
    // The organization switcher shows the name from the session the server layout reads.
    router.refresh();
    await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  });
  return (
    <Card>
      <CardHeader title="Organization" description="The name your team sees in the organization switcher and in invitations." />
      <form id="organization-name" onSubmit={submit} noValidate>
        <CardBody className="flex flex-col gap-4">
          <FormError message={errors.root?.server?.message} />
          <FormField label="Name" error={errors.name?.message} className="max-w-md">
            <Input autoComplete="organization" disabled={!editable} {...form.register("name")} />
          </FormField>
        </CardBody>
        {editable && (
          <CardFooter>
            <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
              Save name
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}

function AddressCard({ organization, editable }: { organization: Organization; editable: boolean }) {
  const queryClient = useQueryClient();
  const form = useForm<{ postal_address: string }>({ defaultValues: { postal_address: organization.postal_address ?? "" } });
  const { errors, isSubmitting, isDirty } = form.formState;
  const submit = submitToApi(form, ["postal_address"], async (values) => {
    const saved = await saveOrganization({ postal_address: values.postal_address.trim() || null });
    queryClient.setQueryData(organizationKey, saved);
    form.reset({ postal_address: saved.postal_address ?? "" });
    toast.success("Address saved", "Footers of emails saved from now on show it.");
  });
  return (
    <Card>
      <CardHeader
        title="Postal address"
        description="Shown in the footer block of marketing emails, as anti-spam laws (CAN-SPAM) and inbox providers expect."
      />
      <form id="organization-address" onSubmit={submit} noValidate>
        <CardBody className="flex flex-col gap-4">
          <FormError message={errors.root?.server?.message} />
          <FormField label="Postal address" error={errors.postal_address?.message} className="max-w-md">
            <Textarea rows={3} autoComplete="street-address" disabled={!editable} maxLength={1000} {...form.register("postal_address")} />
          </FormField>
        </CardBody>
        {editable && (
          <CardFooter>
            <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
              Save address
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}

function TrackingCard({ organization, editable }: { organization: Organization; editable: boolean }) {
  const queryClient = useQueryClient();
  // Switches in the dashboard act at once; the effect starts with the next email sent.
  const toggle = useMutation({
    mutationFn: (tracking_enabled: boolean) => saveOrganization({ tracking_enabled }),
    onSuccess: (saved) => {
      queryClient.setQueryData(organizationKey, saved);
      toast.success(
        saved.tracking_enabled ? "Tracking turned on" : "Tracking turned off",
        saved.tracking_enabled ? "Emails sent from now on record opens and clicks." : "Emails sent from now on carry no pixel and keep their links as written.",
      );
    },
    onError: (error) => toast.error(error, "Could not change tracking"),
  });
  const enabled = (toggle.isPending ? toggle.variables : undefined) ?? organization.tracking_enabled;
  return (
    <Card>
      <CardBody className="flex items-start justify-between gap-6">
        <div className="min-w-0">
          <Label htmlFor="organization-tracking" className="text-[15px] font-semibold text-zinc-900">
            Open and click tracking
          </Label>
          <p className="mt-0.5 text-sm text-zinc-500" id="organization-tracking-hint">
            A pixel records opens and links go through signed redirects. Off: new emails get no pixel and keep their links.
          </p>
        </div>
        <Switch
          id="organization-tracking"
          aria-describedby="organization-tracking-hint"
          checked={enabled}
          disabled={!editable || toggle.isPending}
          onCheckedChange={(checked) => toggle.mutate(checked)}
        />
      </CardBody>
    </Card>
  );
}

function ArchiveCard({ organization, editable }: { organization: Organization; editable: boolean }) {
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (public_archive: boolean) => saveOrganization({ public_archive }),
    onSuccess: (saved) => {
      queryClient.setQueryData(organizationKey, saved);
      toast.success(saved.public_archive ? "Public archive on" : "Public archive off");
    },
    onError: (error) => toast.error(error, "Could not change the archive"),
  });
  const enabled = (toggle.isPending ? toggle.variables : undefined) ?? organization.public_archive;
  const path = `/archive/${organization.id}`;
  return (
    <Card>
      <CardBody className="flex items-start justify-between gap-6">
        <div className="min-w-0">
          <Label htmlFor="organization-archive" className="text-[15px] font-semibold text-zinc-900">
            Public archive
          </Label>
          <p className="mt-0.5 text-sm text-zinc-500" id="organization-archive-hint">
            A public page lists the broadcasts you sent, each shown with placeholders at their fallbacks and without conditional blocks.
            {enabled && (
              <>
                {" "}
                <a href={path} target="_blank" rel="noreferrer" className="font-medium text-brand-600 hover:underline">
                  Open the archive
                </a>
              </>
            )}
          </p>
        </div>
        <Switch
          id="organization-archive"
          aria-describedby="organization-archive-hint"
          checked={enabled}
          disabled={!editable || toggle.isPending}
          onCheckedChange={(checked) => toggle.mutate(checked)}
        />
      </CardBody>
    </Card>
  );
}

/** Percent as people type it ("5", "0.3") to the API's fraction; null when it is not a percentage the API takes. */
const fraction = (percent: string) => {
  const value = Number(percent.trim().replace(",", "."));
  return percent.trim() !== "" && Number.isFinite(value) && value > 0 && value <= 100 ? value / 100 : null;
};
const percentText = (value: number) => String(Number((value * 100).toFixed(3)));

function BreakersCard({ organization, editable }: { organization: Organization; editable: boolean }) {
  const queryClient = useQueryClient();
  type Values = { bounce_pause_threshold: string; complaint_pause_threshold: string };
  const form = useForm<Values>({
    defaultValues: {
      bounce_pause_threshold: percentText(organization.bounce_pause_threshold),
      complaint_pause_threshold: percentText(organization.complaint_pause_threshold),
    },
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    const bounce = fraction(values.bounce_pause_threshold);
    const complaint = fraction(values.complaint_pause_threshold);
    if (bounce === null) form.setError("bounce_pause_threshold", { message: "A percentage above 0 and at most 100" });
    if (complaint === null) form.setError("complaint_pause_threshold", { message: "A percentage above 0 and at most 100" });
    if (bounce === null || complaint === null) return;
    try {
      const saved = await saveOrganization({ bounce_pause_threshold: bounce, complaint_pause_threshold: complaint });
      queryClient.setQueryData(organizationKey, saved);
      form.reset({
        bounce_pause_threshold: percentText(saved.bounce_pause_threshold),
        complaint_pause_threshold: percentText(saved.complaint_pause_threshold),
      });
      toast.success("Circuit breakers saved", "Broadcasts and inboxes sending from now on are judged by them.");
    } catch (error) {
      applyServerErrors(error, form.setError, ["bounce_pause_threshold", "complaint_pause_threshold"]);
    }
  });
  return (
    <Card>
      <CardHeader
        title="Circuit breakers"
        description="A broadcast pauses itself when, after 100 attempts, its hard bounces or complaints pass these rates; an inbox pauses when its recent bounces do. Mailbox providers start filtering at a few percent of bounces and at 0.3 % of complaints."
      />
      <form id="organization-breakers" onSubmit={submit} noValidate>
        <CardBody className="flex flex-col gap-4 sm:flex-row">
          <FormError message={errors.root?.server?.message} />
          <FormField label="Pause at hard-bounce rate (%)" error={errors.bounce_pause_threshold?.message} className="max-w-56">
            <Input inputMode="decimal" disabled={!editable} {...form.register("bounce_pause_threshold")} />
          </FormField>
          <FormField label="Pause at complaint rate (%)" error={errors.complaint_pause_threshold?.message} className="max-w-56">
            <Input inputMode="decimal" disabled={!editable} {...form.register("complaint_pause_threshold")} />
          </FormField>
        </CardBody>
        {editable && (
          <CardFooter>
            <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
              Save thresholds
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}

export function OrganizationSection() {
  return <WithOrganization what="the organization">{(organization) => <OrganizationCards organization={organization} />}</WithOrganization>;
}

function OrganizationCards({ organization }: { organization: OrganizationRecord }) {
  const editable = canManage(organization.role);
  return (
    <div className="flex flex-col gap-6">
      {!editable && (
        <Card className="flex items-start gap-3 px-5 py-4" role="note">
          <ShieldCheck className="mt-0.5 size-5 shrink-0 text-zinc-400" aria-hidden />
          <div className="text-sm">
            <p className="font-medium text-zinc-900">Only owners and admins can change these settings</p>
            <p className="mt-0.5 text-zinc-500">You are a member of {organization.name}. Ask an owner or admin to rename it or to change tracking.</p>
          </div>
        </Card>
      )}
      <NameCard key={organization.id} organization={organization} editable={editable} />
      <AddressCard key={`address-${organization.id}`} organization={organization} editable={editable} />
      <TimeZoneCard key={`time-zone-${organization.id}`} timezone={organization.timezone} editable={editable} />
      <TrackingCard organization={organization} editable={editable} />
      <ArchiveCard organization={organization} editable={editable} />
      <BreakersCard key={`breakers-${organization.id}`} organization={organization} editable={editable} />
    </div>
  );
}

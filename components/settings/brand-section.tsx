"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useForm, useWatch, type UseFormReturn } from "react-hook-form";
import { FileDrop } from "@/components/contacts/import/file-drop";
import { IMAGE_FILES } from "@/components/email-editor/image-files";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardFooter, CardHeader } from "@/components/ui/card";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "@/components/ui/select";
import { Skeleton } from "@/components/ui/skeleton";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { queryKeys } from "@/lib/client/query-keys";
import { useMediaLibrary, useUploadMedia } from "@/lib/client/resources/media";
import { canManage } from "@/lib/client/session";
import { cn } from "@/lib/client/cn";
import type { OrganizationTheme } from "@/lib/schemas/organizations";
import { WithOrganization } from "./with-organization";

/** Nested as the API names them (theme.primary_color), so a refusal lands on its field. */
type Values = { theme: { [K in keyof OrganizationTheme]: string } };
type Color = "primary_color" | "text_color" | "background_color";

const DEFAULTS = { primary_color: "#4f46e5", text_color: "#18181b", background_color: "#ffffff" };
const SYSTEM_FONT = "";
const FONTS = [
  { value: SYSTEM_FONT, label: "The reader's system font (default)" },
  { value: "Helvetica, Arial, sans-serif", label: "Helvetica, Arial" },
  { value: "Verdana, Geneva, sans-serif", label: "Verdana" },
  { value: "'Trebuchet MS', Tahoma, sans-serif", label: "Trebuchet MS" },
  { value: "Georgia, 'Times New Roman', serif", label: "Georgia" },
  { value: "'Courier New', Courier, monospace", label: "Courier New" },
];

const valuesOf = (theme: OrganizationTheme): Values => ({
  theme: {
    primary_color: theme.primary_color ?? "",
    text_color: theme.text_color ?? "",
    background_color: theme.background_color ?? "",
    font_family: theme.font_family ?? "",
    logo_media_id: theme.logo_media_id ?? "",
    footer_html: theme.footer_html ?? "",
  },
});

function ColorField({ form, name, label, editable }: { form: UseFormReturn<Values>; name: Color; label: string; editable: boolean }) {
  const value = useWatch({ control: form.control, name: `theme.${name}` });
  const error = form.formState.errors.theme?.[name]?.message;
  return (
    <FormField label={label} error={error} hint={`Default ${DEFAULTS[name]}`} className="max-w-56">
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label}: pick`}
          disabled={!editable}
          value={/^#[0-9a-f]{6}$/i.test(value) ? value : DEFAULTS[name]}
          onChange={(event) => form.setValue(`theme.${name}`, event.target.value, { shouldDirty: true })}
          className="h-9 w-10 shrink-0 cursor-pointer rounded border border-zinc-200 bg-white p-0.5"
        />
        <Input aria-label={label} placeholder={DEFAULTS[name]} disabled={!editable} {...form.register(`theme.${name}`)} />
      </div>
    </FormField>
  );
}

function LogoField({ form, editable }: { form: UseFormReturn<Values>; editable: boolean }) {
  const chosen = useWatch({ control: form.control, name: "theme.logo_media_id" });
  const library = useMediaLibrary();
  const upload = useUploadMedia();
  const pick = (id: string) => form.setValue("theme.logo_media_id", id, { shouldDirty: true });
  const current = library.data?.find((media) => media.id === chosen);
  return (
    <FormField label="Logo" hint="Shown centred at the top of every email written in the visual editor.">
      <div className="flex flex-col gap-3">
        {chosen && (
          <div className="flex items-center gap-3">
            {current ? (
              // eslint-disable-next-line @next/next/no-img-element -- the library's own URL, any size
              <img src={current.url} alt="The logo" className="h-12 max-w-48 rounded border border-zinc-200 object-contain" />
            ) : (
              <Skeleton className="h-12 w-24" />
            )}
            {editable && (
              <Button variant="secondary" size="sm" onClick={() => form.setValue("theme.logo_media_id", "", { shouldDirty: true })}>
                Remove logo
              </Button>
            )}
          </div>
        )}
        {editable && (
          <>
            <FileDrop
              disabled={upload.isPending}
              text={{ ...IMAGE_FILES, label: "Logo file", action: "Upload a logo", hint: "PNG, JPEG, GIF or WebP, up to 5 MB." }}
              onFile={(file) =>
                upload.mutate(file, { onSuccess: (media) => pick(media.id), onError: (error) => toast.error(error, "The logo was not uploaded") })
              }
            />
            {(library.data?.length ?? 0) > 0 && (
              <ul aria-label="Choose the logo from the media library" className="flex flex-wrap gap-2">
                {library.data?.slice(0, 12).map((media) => (
                  <li key={media.id}>
                    <button
                      type="button"
                      aria-pressed={media.id === chosen}
                      aria-label={`Use ${media.filename} as the logo`}
                      onClick={() => pick(media.id)}
                      className={cn(
                        "flex size-14 items-center justify-center rounded border border-zinc-200 bg-zinc-50 p-1",
                        media.id === chosen && "border-brand-500 ring-2 ring-brand-500/30",
                      )}
                    >
                      {/* eslint-disable-next-line @next/next/no-img-element -- the library's own URL */}
                      <img src={media.url} alt="" className="max-h-full max-w-full object-contain" />
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </FormField>
  );
}

function BrandCard({ theme, editable }: { theme: OrganizationTheme; editable: boolean }) {
  const queryClient = useQueryClient();
  const form = useForm<Values>({ defaultValues: valuesOf(theme) });
  const { errors, isSubmitting, isDirty } = form.formState;
  const [primary, text, background] = useWatch({ control: form.control, name: ["theme.primary_color", "theme.text_color", "theme.background_color"] });
  const submit = submitToApi(form, ["theme"], async ({ theme: values }) => {
    const orNull = (value: string) => value.trim() || null;
    const saved = await apiCall("PUT /v1/organization", {
      body: {
        theme: {
          primary_color: orNull(values.primary_color),
          text_color: orNull(values.text_color),
          background_color: orNull(values.background_color),
          font_family: orNull(values.font_family),
          logo_media_id: orNull(values.logo_media_id),
          footer_html: orNull(values.footer_html),
        },
      },
    });
    queryClient.setQueryData(queryKeys.organization(), saved);
    // Drafts, templates and steps were rendered again with the brand.
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.broadcasts.all() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.templates.all() }),
    ]);
    form.reset(valuesOf(saved.theme));
    toast.success("Brand saved", "Drafts, templates and follow-ups written in the visual editor now show it.");
  });
  return (
    <Card>
      <CardHeader title="Brand" description="Colours, font, logo and footer of every email written in the visual editor." />
      <form id="organization-brand" onSubmit={submit} noValidate>
        <CardBody className="flex flex-col gap-5">
          <FormError message={errors.root?.server?.message} />
          <div className="flex flex-wrap gap-4">
            <ColorField form={form} name="primary_color" label="Primary colour" editable={editable} />
            <ColorField form={form} name="text_color" label="Text colour" editable={editable} />
            <ColorField form={form} name="background_color" label="Background colour" editable={editable} />
          </div>
          <FormField label="Font" error={errors.theme?.font_family?.message} className="max-w-md">
            <NativeSelect
              disabled={!editable}
              options={
                FONTS.some((font) => font.value === theme.font_family || !theme.font_family)
                  ? FONTS
                  : [...FONTS, { value: theme.font_family ?? "", label: theme.font_family ?? "" }]
              }
              {...form.register("theme.font_family")}
            />
          </FormField>
          <LogoField form={form} editable={editable} />
          <FormField
            label="Footer"
            error={errors.theme?.footer_html?.message}
            hint="HTML with links, bold, italic and line breaks, shown under the unsubscribe link instead of the postal address (e.g. your company name and address)."
            className="max-w-xl"
          >
            <Textarea rows={3} disabled={!editable} placeholder="Acme Inc. · 1 Main Street, Springfield" {...form.register("theme.footer_html")} />
          </FormField>
          <div
            aria-label="Brand sample"
            role="img"
            className="max-w-md rounded-lg border border-zinc-200 p-4"
            style={{ background: background || DEFAULTS.background_color }}
          >
            <p className="text-sm" style={{ color: text || DEFAULTS.text_color }}>
              Hello there, this is how your text looks,{" "}
              <span style={{ color: primary || DEFAULTS.primary_color, textDecoration: "underline" }}>with a link</span>.
            </p>
            <span className="mt-3 inline-block rounded-md px-4 py-2 text-sm font-semibold text-white" style={{ background: primary || DEFAULTS.primary_color }}>
              A button
            </span>
          </div>
        </CardBody>
        {editable && (
          <CardFooter>
            <Button type="submit" loading={isSubmitting} disabled={!isDirty}>
              Save brand
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}

export function BrandSection() {
  return (
    <WithOrganization what="the brand">
      {(organization) => <BrandCard key={organization.updated_at} theme={organization.theme} editable={canManage(organization.role)} />}
    </WithOrganization>
  );
}

"use client";

import { useQueryClient } from "@tanstack/react-query";
import { FileSpreadsheet, RefreshCw, Upload } from "lucide-react";
import { useMemo, useRef, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { BackLink } from "@/components/ui/back-link";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { Checkbox } from "@/components/ui/checkbox";
import { Card, CardBody, CardFooter, CardHeader } from "@/components/ui/card";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { Progress } from "@/components/ui/progress";
import { RadioCards } from "@/components/ui/radio-cards";
import { NativeSelect } from "@/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toast";
import { queryKeys } from "@/lib/client/query-keys";
import { useSegments } from "@/lib/client/resources/segments";
import { useContactProperties } from "@/lib/client/resources/contact-properties";
import { ApiError, errorMessage } from "@/lib/client/api";
import { MAX_IMPORT_BYTES, type ImportContactsResult } from "@/lib/schemas/contacts";
import { contactsKey } from "../use-contacts";
import { FileDrop } from "./file-drop";
import { guessTargets, targetLabels, type ImportTarget } from "./guess-property";
import { ImportResult } from "./import-result";
import { mappedColumns, mappingResolver, skippedFlags, type ImportValues } from "./mapping-values";
import { readCsv, type CsvPreview } from "./read-csv";
import { uploadImport, type ImportPhase } from "./upload-import";

const targetOptions = (Object.keys(targetLabels) as ImportTarget[]).map((value) => ({ value, label: targetLabels[value] }));

const missingOptions = [
  { value: "create", label: "Create them", description: "Emails not in your contacts yet become new contacts." },
  { value: "skip", label: "Skip them", description: "Only update contacts you already have; new emails are left out." },
];

const hygieneOptions = [
  {
    name: "skip_disposable",
    label: "Skip disposable addresses",
    description: "Throwaway mailboxes (mailinator.com and thousands more) that stop existing within hours.",
  },
  {
    name: "skip_role",
    label: "Skip role accounts",
    description: "Addresses of a function, not a person: info@, sales@, support@, noreply@…",
  },
] as const;

const delimiterNames: Record<string, string> = { ",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe" };

const formatBytes = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

function phaseText(phase: ImportPhase, rows: number): string {
  if (phase.phase === "encoding") return "Preparing the file…";
  if (phase.phase === "uploading") return `Uploading… ${Math.round(phase.share * 100)}%`;
  return `Importing ${rows.toLocaleString()} rows…`;
}

function MappingForm({ file, preview, onDone }: { file: File; preview: CsvPreview; onDone: (result: ImportContactsResult, segmentId?: string) => void }) {
  const queryClient = useQueryClient();
  const segments = useSegments();
  const properties = useContactProperties();
  const resolver = useMemo(() => mappingResolver(preview.headers), [preview.headers]);
  const form = useForm<ImportValues>({
    resolver,
    defaultValues: {
      mappings: guessTargets(preview.headers).map((target, index) => ({ target, custom_key: target === "custom" ? preview.headers[index] : "" })),
      handle_missing: "create",
      segment_id: "",
      skip_disposable: false,
      skip_role: false,
    },
  });
  const mappings = useWatch({ control: form.control, name: "mappings" });
  const [phase, setPhase] = useState<ImportPhase | null>(null);
  const { errors, isSubmitting } = form.formState;
  const importing = mappings.filter((m) => m.target !== "ignore").length;

  const submit = form.handleSubmit(async (values) => {
    const mapped = mappedColumns(preview.headers, values.mappings);
    try {
      const result = await uploadImport(
        {
          file,
          column_mappings: mapped.map((m) => m.mapping),
          handle_missing: values.handle_missing,
          segment_id: values.segment_id || undefined,
          skip_flagged: skippedFlags(values),
        },
        setPhase,
      );
      void queryClient.invalidateQueries({ queryKey: contactsKey });
      void queryClient.invalidateQueries({ queryKey: queryKeys.segments.all() });
      toast.success(
        "Import finished",
        `${result.created.toLocaleString()} created, ${result.updated.toLocaleString()} updated, ${result.skipped.toLocaleString()} skipped.`,
      );
      onDone(result, values.segment_id || undefined);
    } catch (error) {
      setPhase(null);
      // column_mappings.N names the Nth mapped column; show it on that column's row.
      let placed = false;
      if (error instanceof ApiError) {
        for (const detail of error.details) {
          const match = /^column_mappings\.(\d+)/.exec(detail.path);
          const column = match ? mapped[Number(match[1])]?.column : undefined;
          if (column !== undefined) {
            form.setError(`mappings.${column}.target`, { type: "server", message: detail.message });
            placed = true;
          } else if (detail.path === "segment_id") {
            form.setError("segment_id", { type: "server", message: detail.message });
            placed = true;
          }
        }
      }
      if (!placed) form.setError("root.server", { type: "server", message: errorMessage(error) });
    }
  });

  const segmentOptions = [{ value: "", label: "Don't add to a segment" }, ...(segments.data ?? []).map((s) => ({ value: s.id, label: s.name }))];
  const busy = isSubmitting || phase !== null;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6">
      <Card>
        <CardHeader title="Preview" description={`The first ${preview.rows.length} of ${preview.rowCount.toLocaleString()} rows, as read from the file.`} />
        <Table>
          <TableHead>
            <tr>
              {preview.headers.map((header, index) => (
                <TableHeaderCell key={index}>{header || <span className="text-zinc-400">(no header)</span>}</TableHeaderCell>
              ))}
            </tr>
          </TableHead>
          <TableBody>
            {preview.rows.slice(0, 5).map((row, rowIndex) => (
              <TableRow key={rowIndex}>
                {preview.headers.map((_header, index) => (
                  <TableCell key={index} className="max-w-56 truncate whitespace-nowrap">
                    {row[index] ?? ""}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>

      <Card>
        <CardHeader title="Map columns" description="Say what each column holds. Unrecognized columns become custom properties, usable as {{placeholders}}." />
        <datalist id="import-property-keys">
          {(properties.data ?? []).map((p) => (
            <option key={p.key} value={p.key}>
              {p.label}
            </option>
          ))}
        </datalist>
        {errors.mappings?.message && <FormError className="mx-5 mt-4" message={errors.mappings.message} />}
        <Table>
          <TableHead>
            <tr>
              <TableHeaderCell>Column</TableHeaderCell>
              <TableHeaderCell>Sample</TableHeaderCell>
              <TableHeaderCell className="w-52">Import as</TableHeaderCell>
              <TableHeaderCell className="w-56">Property name</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {preview.headers.map((header, index) => {
              const rowErrors = errors.mappings?.[index];
              const samples = preview.rows
                .map((row) => row[index])
                .filter((value) => value && value.trim())
                .slice(0, 3);
              const target = mappings[index]?.target;
              const typed = target === "custom" ? properties.data?.find((p) => p.key === mappings[index]?.custom_key?.trim()) : undefined;
              return (
                <TableRow key={index} className="align-top">
                  <TableCell className="max-w-48 font-medium text-zinc-900">
                    <span className="block truncate">{header || <span className="text-zinc-400">(no header)</span>}</span>
                  </TableCell>
                  <TableCell className="max-w-56 text-[13px] text-zinc-500">
                    {samples.length ? (
                      samples.map((sample, i) => (
                        <span key={i} className="block truncate">
                          {sample}
                        </span>
                      ))
                    ) : (
                      <span className="text-zinc-400">empty</span>
                    )}
                  </TableCell>
                  <TableCell>
                    <NativeSelect
                      aria-label={`Import ${header || `column ${index + 1}`} as`}
                      aria-invalid={rowErrors?.target ? true : undefined}
                      options={header ? targetOptions : targetOptions.filter((o) => o.value === "ignore")}
                      {...form.register(`mappings.${index}.target`)}
                    />
                    {rowErrors?.target?.message && <p className="mt-1 text-[13px] font-medium text-red-600">{rowErrors.target.message}</p>}
                  </TableCell>
                  <TableCell>
                    {target === "custom" ? (
                      <>
                        <Input
                          aria-label={`Property name for ${header}`}
                          aria-invalid={rowErrors?.custom_key ? true : undefined}
                          placeholder="e.g. company"
                          list="import-property-keys"
                          {...form.register(`mappings.${index}.custom_key`)}
                        />
                        {typed && (
                          <p className="mt-1 text-[12px] text-zinc-500">
                            {typed.label}: typed {typed.type}. Cells are converted{typed.type === "boolean" ? " (yes/no, true/false, 1/0)" : ""}; a row whose
                            cell does not convert is listed as an error.
                          </p>
                        )}
                        {rowErrors?.custom_key?.message && <p className="mt-1 text-[13px] font-medium text-red-600">{rowErrors.custom_key.message}</p>}
                      </>
                    ) : (
                      <span className="text-[13px] text-zinc-400">
                        {target === "ignore"
                          ? "Not imported"
                          : target === "tags"
                            ? "Split on , or ;"
                            : target === "subscribed"
                              ? "yes/no, true/false, 1/0"
                              : "—"}
                      </span>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Card>

      <Card>
        <CardHeader title="Options" />
        <CardBody className="flex flex-col gap-5">
          <div className="flex flex-col gap-1.5">
            <Label id="handle-missing-label">Emails not in your contacts</Label>
            <Controller
              control={form.control}
              name="handle_missing"
              render={({ field }) => (
                <RadioCards aria-labelledby="handle-missing-label" value={field.value} onValueChange={field.onChange} options={missingOptions} />
              )}
            />
            <p className="text-[13px] text-zinc-500">Contacts you already have are updated with the mapped columns either way.</p>
          </div>
          <FormField
            label="Add to segment"
            error={errors.segment_id?.message}
            hint="Optional. Every imported contact, new or updated, joins it."
            className="max-w-md"
          >
            <NativeSelect options={segmentOptions} {...form.register("segment_id")} />
          </FormField>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium text-zinc-800">Risky addresses</legend>
            {hygieneOptions.map((option) => (
              <Controller
                key={option.name}
                control={form.control}
                name={option.name}
                render={({ field }) => (
                  <label className="flex items-start gap-2 text-sm text-zinc-800">
                    <Checkbox className="mt-0.5" checked={field.value} onCheckedChange={(checked) => field.onChange(checked === true)} />
                    <span>
                      <span className="block font-medium">{option.label}</span>
                      <span className="block text-[13px] text-zinc-500">{option.description}</span>
                    </span>
                  </label>
                )}
              />
            ))}
            <p className="text-[13px] text-zinc-500">Either way, the result lists the invalid, disposable and role addresses the file has.</p>
          </fieldset>
        </CardBody>
        <CardFooter className="flex-col items-stretch gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0 flex-1">
            <FormError message={errors.root?.server?.message} />
            {phase && (
              <div className="flex flex-col gap-1.5" aria-live="polite">
                <p className="text-sm text-zinc-700">{phaseText(phase, preview.rowCount)}</p>
                <Progress value={phase.phase === "processing" ? undefined : phase.share * 100} label="Import progress" className="max-w-md" />
              </div>
            )}
          </div>
          <Button type="submit" loading={busy} disabled={importing === 0}>
            <Upload aria-hidden />
            Import {preview.rowCount.toLocaleString()} row{preview.rowCount === 1 ? "" : "s"}
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}

/** Choose a CSV, read it in the browser, map its columns, import it, and show what happened. */
export function ImportWizard() {
  const [file, setFile] = useState<File | null>(null);
  const [reading, setReading] = useState<number | null>(null);
  const [preview, setPreview] = useState<CsvPreview | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [done, setDone] = useState<{ result: ImportContactsResult; segmentId?: string } | null>(null);
  const attempt = useRef(0);

  const choose = (chosen: File) => {
    const current = (attempt.current += 1);
    setFile(chosen);
    setPreview(null);
    setDone(null);
    setReadError(null);
    if (chosen.size > MAX_IMPORT_BYTES) {
      setReadError(`${chosen.name} is ${formatBytes(chosen.size)}; files of at most 50 MB can be imported. Split it into smaller files.`);
      return;
    }
    setReading(0);
    readCsv(chosen, (share) => attempt.current === current && setReading(share))
      .then((result) => {
        if (attempt.current !== current) return;
        if (result.rowCount === 0) setReadError("The file has a header row but no data rows.");
        else setPreview(result);
      })
      .catch((error: unknown) => attempt.current === current && setReadError(errorMessage(error)))
      .finally(() => attempt.current === current && setReading(null));
  };

  const reset = () => {
    attempt.current += 1;
    setFile(null);
    setPreview(null);
    setReadError(null);
    setReading(null);
    setDone(null);
  };

  return (
    <>
      <PageHeader
        breadcrumb={<BackLink href="/contacts">Contacts</BackLink>}
        title="Import contacts"
        description="Bring contacts in from a CSV file. New emails become contacts; existing ones are updated."
      />
      {done && file ? (
        <ImportResult result={done.result} fileName={file.name} segmentId={done.segmentId} onAgain={reset} />
      ) : (
        <div className="flex flex-col gap-6">
          <Card>
            <CardHeader
              title="File"
              actions={
                file && (
                  <Button variant="secondary" size="sm" onClick={reset} disabled={reading !== null}>
                    <RefreshCw aria-hidden />
                    Choose another file
                  </Button>
                )
              }
            />
            <CardBody>
              {!file ? (
                <FileDrop onFile={choose} />
              ) : (
                <div className="flex flex-col gap-3">
                  <div className="flex items-center gap-3">
                    <span className="flex size-10 items-center justify-center rounded-lg bg-emerald-50 text-emerald-700 ring-1 ring-emerald-200">
                      <FileSpreadsheet className="size-5" aria-hidden />
                    </span>
                    <div className="min-w-0">
                      <p className="truncate text-sm font-medium text-zinc-900">{file.name}</p>
                      <p className="text-[13px] text-zinc-500">
                        {formatBytes(file.size)}
                        {preview &&
                          ` · ${preview.rowCount.toLocaleString()} rows · ${preview.headers.length} columns · ${delimiterNames[preview.delimiter] ?? "custom"} separated`}
                      </p>
                    </div>
                  </div>
                  {reading !== null && (
                    <div className="flex flex-col gap-1.5" aria-live="polite">
                      <p className="text-sm text-zinc-600">Reading the file… {Math.round(reading * 100)}%</p>
                      <Progress value={reading * 100} label="Reading the file" />
                    </div>
                  )}
                  {readError && (
                    <Callout tone="danger" title="This file cannot be imported">
                      {readError}
                    </Callout>
                  )}
                </div>
              )}
            </CardBody>
          </Card>
          {file && preview && (
            <MappingForm
              key={file.name + file.size + file.lastModified}
              file={file}
              preview={preview}
              onDone={(result, segmentId) => setDone({ result, segmentId })}
            />
          )}
        </div>
      )}
    </>
  );
}

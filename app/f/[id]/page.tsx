import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { formInputs } from "@/lib/forms/form-inputs";
import { HONEYPOT_FIELD } from "@/lib/schemas/forms";
import { findPublicForm } from "@/lib/services/form-submissions";

export const metadata: Metadata = { title: "Subscribe", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const inputClass =
  "mt-1 block h-11 w-full rounded-md border border-zinc-300 bg-white px-3 text-base text-zinc-900 shadow-xs focus-visible:border-brand-500 focus-visible:ring-2 focus-visible:ring-brand-500/30 focus-visible:outline-none sm:h-9 sm:text-sm";

/** A form's hosted page (/f/<id>): its inputs, posting to its public endpoint, and its thank-you. */
export default async function HostedFormPage({ params, searchParams }: Props) {
  const { id } = await params;
  const search = await searchParams;
  const form = await findPublicForm(id);
  if (!form) notFound();
  const inputs = formInputs(form.fields, form.properties);
  const invalid = new Set(typeof search.invalid === "string" ? search.invalid.split(",") : []);
  const submitted = search.submitted === "1";

  return (
    <main className="flex min-h-screen items-start justify-center bg-zinc-50 px-4 py-10 sm:pt-20">
      <Card className="w-full max-w-[440px] px-5 py-6 sm:px-8 sm:py-7">
        <p className="text-[13px] font-medium text-zinc-500">{form.organization.name}</p>
        <h1 className="mt-1 text-xl font-semibold tracking-tight text-zinc-900">{form.name}</h1>
        {submitted ? (
          <p role="status" className="mt-4 text-sm text-zinc-600">
            {form.double_opt_in
              ? "Thank you! Check your inbox: we sent you a link to confirm your subscription."
              : `Thank you! You are subscribed to emails from ${form.organization.name}.`}
          </p>
        ) : (
          <form method="post" action={`/f/${form.id}/submit`} className="mt-5 flex flex-col gap-4" noValidate={false}>
            {inputs.map((input) =>
              input.type === "checkbox" ? (
                <label key={input.key} className="flex items-center gap-2 text-sm text-zinc-800">
                  <input type="checkbox" name={input.key} value="true" className="size-4" />
                  {input.label}
                </label>
              ) : (
                <label key={input.key} className="text-sm font-medium text-zinc-800">
                  {input.label}
                  <input
                    type={input.type}
                    name={input.key}
                    required={input.required}
                    autoComplete={
                      input.key === "email" ? "email" : input.key === "first_name" ? "given-name" : input.key === "last_name" ? "family-name" : "off"
                    }
                    aria-invalid={invalid.has(input.key) || undefined}
                    className={inputClass}
                  />
                  {invalid.has(input.key) && (
                    <span role="alert" className="mt-1 block text-[13px] font-medium text-red-600">
                      {input.key === "email" ? "Please enter a valid email address." : "Please check this value."}
                    </span>
                  )}
                </label>
              ),
            )}
            {/* People never see this input; bots that fill every input do. */}
            <input
              type="text"
              name={HONEYPOT_FIELD}
              defaultValue=""
              tabIndex={-1}
              autoComplete="off"
              aria-hidden
              className="absolute -left-[10000px] h-px w-px"
            />
            <Button type="submit" className="mt-1 h-11 w-full sm:h-9">
              Subscribe
            </Button>
            <p className="text-xs text-zinc-500">
              {form.double_opt_in ? "We will email you a link to confirm. " : ""}You can unsubscribe or choose what you receive from any of our emails.
            </p>
          </form>
        )}
      </Card>
    </main>
  );
}

"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { ApiError, apiCall, errorMessage } from "@/lib/client/api";
import type { Contact } from "@/lib/client/resources/contacts";
import { useSessionInfo } from "@/lib/client/session";
import { MAX_TEST_RECIPIENTS, testSendInput } from "@/lib/schemas/test-sends";
import { ContactPicker } from "./preview-as";

/**
 * Sends the saved content to a few reviewers (the signed-in user by default), rendered as a
 * chosen contact. `test` is the API's test endpoint and the id of what it sends; `beforeSend` saves pending edits first.
 */
export function SendTestDialog({
  open,
  onOpenChange,
  test,
  segmentId,
  contact,
  onContactChange,
  beforeSend,
  stepId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  test: { route: "POST /v1/broadcasts/{id}/test" | "POST /v1/templates/{id}/test"; id: string };
  segmentId: string | null;
  contact: Contact | null;
  onContactChange: (contact: Contact | null) => void;
  beforeSend?: () => Promise<boolean>;
  /** A follow-up step of the broadcast instead of its first email. */
  stepId?: string;
}) {
  const session = useSessionInfo();
  const [emails, setEmails] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const value = emails ?? session.data?.user.email ?? "";

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const list = value.split(/[\s,;]+/).filter(Boolean);
    const body = { emails: list, ...(contact ? { contact_id: contact.id } : {}), ...(stepId ? { step_id: stepId } : {}) };
    const parsed = testSendInput.safeParse(body);
    if (!parsed.success) return setError(`Give 1 to ${MAX_TEST_RECIPIENTS} email addresses, separated by commas.`);
    setBusy(true);
    setError(null);
    try {
      if (beforeSend && !(await beforeSend())) return setError("Save the email first: it has errors.");
      const result = await apiCall(test.route, { params: { id: test.id }, body: parsed.data });
      toast.success(`Test sent to ${result.sent.map((s) => s.email).join(", ")}`, `${result.remaining_this_hour} more test emails allowed this hour.`);
      onOpenChange(false);
    } catch (caught) {
      setError(caught instanceof ApiError && caught.code === "RATE_LIMITED" ? caught.message : errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Send a test"
      description="The email as it is saved, with [Test] before the subject. Nothing is counted as sent."
      size="md"
    >
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" noValidate>
        <FormField label="Send to" hint={`Up to ${MAX_TEST_RECIPIENTS} addresses, separated by commas.`} error={error ?? undefined}>
          <Input value={value} onChange={(event) => setEmails(event.target.value)} autoComplete="off" />
        </FormField>
        <div className="flex flex-col gap-1.5">
          <span className="text-sm font-medium text-zinc-800">Render as</span>
          <ContactPicker label="Render as" segmentId={segmentId} value={contact} onChange={onContactChange} />
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Send test
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Download, Eraser } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { formatDateTime } from "@/components/ui/date";
import { toast } from "@/components/ui/toast";
import { apiCall } from "@/lib/client/api";
import { saveFile } from "@/lib/client/download";
import { queryKeys } from "@/lib/client/query-keys";
import type { ContactRecord } from "@/lib/schemas/contacts";

const sources: Record<string, string> = { form: "Signup form", import: "CSV import", api: "API", dashboard: "Dashboard" };

/** How and when the contact subscribed (its consent records, newest first), and its data: export or erase. */
export function ConsentCard({ contact }: { contact: ContactRecord }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [erasing, setErasing] = useState(false);
  const records = [...contact.consent].reverse();

  const exportData = async () => {
    try {
      const data = await apiCall("GET /v1/contacts/{id}/export", { params: { id: contact.id } });
      saveFile(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }), `contact-${contact.id}.json`);
    } catch (error) {
      toast.error(error, "Could not export the contact's data");
    }
  };
  const erase = async () => {
    try {
      await apiCall("DELETE /v1/contacts/{id}", { params: { id: contact.id }, query: { erase: "true" } });
    } catch (error) {
      toast.error(error, "Could not erase the contact");
      throw error;
    }
    toast.success("Contact erased", "Its address survives only as a hash where counts need it.");
    await queryClient.invalidateQueries({ queryKey: queryKeys.contacts.all() });
    router.push("/contacts");
  };

  return (
    <Card>
      <CardHeader title="Consent" description="Each time this contact was subscribed, and how." />
      {records.length === 0 ? (
        <p className="px-5 py-4 text-sm text-zinc-500">No consent recorded: the contact was never subscribed, or was subscribed before records were kept.</p>
      ) : (
        <ul className="divide-y divide-zinc-100" aria-label="Consent records">
          {records.map((record, i) => (
            <li key={`${record.at}-${i}`} className="px-5 py-3 text-sm">
              <p className="font-medium text-zinc-900">{sources[record.source] ?? record.source}</p>
              <p className="text-[13px] text-zinc-500">
                {formatDateTime(record.at)}
                {record.ip ? ` · from ${record.ip}` : ""}
              </p>
            </li>
          ))}
        </ul>
      )}
      <CardBody className="flex flex-wrap gap-2 border-t border-zinc-100">
        <Button variant="secondary" size="sm" onClick={exportData}>
          <Download aria-hidden />
          Export data
        </Button>
        <Button variant="secondary" size="sm" onClick={() => setErasing(true)}>
          <Eraser aria-hidden />
          Erase contact
        </Button>
      </CardBody>
      <ConfirmDialog
        open={erasing}
        onOpenChange={setErasing}
        title={`Erase ${contact.email}?`}
        description="The contact is deleted, and its address and names are removed from its emails and events. Reports keep their counts; a suppression keeps only a hash of the address. This cannot be undone."
        confirmLabel="Erase contact"
        onConfirm={erase}
        destructive
      />
    </Card>
  );
}

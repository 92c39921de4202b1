"use client";

import { KeyRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Callout } from "@/components/ui/callout";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import type { CreatedWebhook } from "./webhook-types";

/** The signing secret of a new webhook: shown this once, with a copy button. */
export function SecretDialog({ webhook, onClose }: { webhook: CreatedWebhook | null; onClose: () => void }) {
  return (
    <Dialog
      open={webhook !== null}
      onOpenChange={(open) => !open && onClose()}
      preventOutsideClose
      title="Webhook added"
      description={webhook?.url}
      footer={<Button onClick={onClose}>I have saved the secret</Button>}
    >
      <div className="flex flex-col gap-4">
        <Callout tone="warning" title="Copy the signing secret now">
          It is shown only this once. Your endpoint uses it to check that each request comes from us.
        </Callout>
        <div>
          <p className="mb-1.5 flex items-center gap-1.5 text-sm font-medium text-zinc-800">
            <KeyRound className="size-4 text-zinc-400" aria-hidden />
            Signing secret
          </p>
          <div className="flex items-center gap-2">
            <code
              data-testid="webhook-secret"
              className="min-w-0 flex-1 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[13px] break-all text-zinc-900 select-all"
            >
              {webhook?.secret}
            </code>
            <CopyButton value={webhook?.secret ?? ""} what="signing secret" label="Copy" />
          </div>
        </div>
        <p className="text-[13px] text-zinc-500">
          Verify the <code className="font-mono">webhook-id</code>, <code className="font-mono">webhook-timestamp</code> and{" "}
          <code className="font-mono">webhook-signature</code> headers with any Standard Webhooks library.
        </p>
      </div>
    </Dialog>
  );
}

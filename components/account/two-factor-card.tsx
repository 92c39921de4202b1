"use client";

import type { z } from "zod";
import type { twoFactorSetup } from "@/lib/schemas/accounts";
import { useQueryClient } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toast";
import { apiFetch, apiCall } from "@/lib/client/api";
import { submitToApi } from "@/lib/client/form-errors";
import { formResolver } from "@/lib/client/form-resolver";
import { disableTwoFactorInput, enableTwoFactorInput } from "@/lib/schemas/accounts";
import { accountKey, type AccountProfile } from "./account-screen";

type Setup = z.infer<typeof twoFactorSetup>;

/** Scan (or type the secret), then confirm with a first code; the recovery codes follow, once. */
function SetupPanel({ setup, onEnabled }: { setup: Setup; onEnabled: (codes: string[]) => void }) {
  const form = useForm<{ code: string; password: string }>({ resolver: formResolver(enableTwoFactorInput), defaultValues: { code: "", password: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = submitToApi(form, ["code", "password"], async (values) => {
    const result = await apiCall("POST /api/account/two-factor/enable", { body: values });
    onEnabled(result.recovery_codes);
  });
  return (
    <div className="flex flex-col gap-5 sm:flex-row">
      {/* The SVG comes from our own server (the qrcode package), never from user input. */}
      <div
        className="size-44 shrink-0 rounded-lg border border-zinc-200 bg-white p-2"
        aria-label="QR code for your authenticator app"
        role="img"
        dangerouslySetInnerHTML={{ __html: setup.qr_svg }}
      />
      <form onSubmit={submit} noValidate className="flex min-w-0 flex-1 flex-col gap-4">
        <ol className="list-decimal space-y-1 pl-5 text-sm text-zinc-600">
          <li>Scan the QR code with an authenticator app (1Password, Google Authenticator, Authy…).</li>
          <li>Or type this secret into the app:</li>
        </ol>
        <div className="flex items-center gap-2">
          <code
            data-testid="two-factor-secret"
            className="min-w-0 flex-1 rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 font-mono text-[13px] break-all select-all"
          >
            {setup.secret}
          </code>
          <CopyButton value={setup.secret} what="secret" label="Copy" />
        </div>
        <FormError message={errors.root?.server?.message} />
        <FormField label="Code from the app" error={errors.code?.message} className="max-w-xs">
          <Input autoComplete="one-time-code" inputMode="numeric" placeholder="123456" {...form.register("code")} />
        </FormField>
        <FormField label="Your password" error={errors.password?.message} className="max-w-xs">
          <Input type="password" autoComplete="current-password" {...form.register("password")} />
        </FormField>
        <div>
          <Button type="submit" loading={isSubmitting}>
            Turn on two-factor sign-in
          </Button>
        </div>
      </form>
    </div>
  );
}

function RecoveryCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  return (
    <Dialog
      open={codes !== null}
      onOpenChange={(open) => !open && onClose()}
      preventOutsideClose
      title="Save your recovery codes"
      description="Each one signs you in once if you lose your phone. This is the only time they are shown."
      footer={<Button onClick={onClose}>I have saved them</Button>}
    >
      {codes && (
        <div className="flex flex-col gap-3">
          <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 rounded-lg border border-zinc-200 bg-zinc-50 p-3 font-mono text-sm">
            {codes.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
          <CopyButton value={codes.join("\n")} what="recovery codes" label="Copy all" />
        </div>
      )}
    </Dialog>
  );
}

function DisableDialog({ open, onOpenChange, onDone }: { open: boolean; onOpenChange: (open: boolean) => void; onDone: () => void }) {
  const form = useForm<{ password: string }>({ resolver: formResolver(disableTwoFactorInput), defaultValues: { password: "" } });
  const { errors, isSubmitting } = form.formState;
  const submit = submitToApi(form, ["password"], async (values) => {
    await apiFetch("/api/account/two-factor/disable", { method: "POST", body: values });
    form.reset();
    onDone();
  });
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Turn off two-factor sign-in?"
      description="Your password alone will sign you in again. Enter it to confirm."
      footer={
        <Button form="disable-two-factor" type="submit" loading={isSubmitting} variant="danger">
          Turn off
        </Button>
      }
    >
      <form id="disable-two-factor" onSubmit={submit} noValidate className="flex flex-col gap-4">
        <FormError message={errors.root?.server?.message} />
        <FormField label="Password" error={errors.password?.message}>
          <Input type="password" autoComplete="current-password" autoFocus {...form.register("password")} />
        </FormField>
      </form>
    </Dialog>
  );
}

export function TwoFactorCard({ account }: { account: AccountProfile }) {
  const queryClient = useQueryClient();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [starting, setStarting] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: accountKey });

  const start = async () => {
    setStarting(true);
    try {
      setSetup(await apiCall("POST /api/account/two-factor/setup"));
    } catch (error) {
      toast.error(error, "Could not start the set-up");
    } finally {
      setStarting(false);
    }
  };

  return (
    <Card>
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            Two-factor sign-in
            {account.two_factor_enabled && (
              <Badge tone="success" dot>
                On
              </Badge>
            )}
          </span>
        }
        description="A code from an app on your phone, asked after your password. Recommended for owners and admins."
        actions={
          account.two_factor_enabled ? (
            <Button variant="secondary" onClick={() => setDisabling(true)}>
              Turn off
            </Button>
          ) : setup ? undefined : (
            <Button onClick={() => void start()} loading={starting} disabled={!account.email_verified}>
              {!starting && <ShieldCheck aria-hidden />}
              Set up two-factor sign-in
            </Button>
          )
        }
      />
      {!account.two_factor_enabled && !account.email_verified && (
        <CardBody className="text-sm text-zinc-600">Verify your email address first: two-factor sign-in needs an address that is proven yours.</CardBody>
      )}
      {account.two_factor_enabled ? (
        <CardBody className="text-sm text-zinc-600">{account.recovery_codes_remaining} of 10 recovery codes left.</CardBody>
      ) : (
        setup && (
          <CardBody>
            <SetupPanel
              setup={setup}
              onEnabled={(recoveryCodes) => {
                setSetup(null);
                setCodes(recoveryCodes);
                toast.success("Two-factor sign-in is on", "Your next sign-in asks for a code.");
                void refresh();
              }}
            />
          </CardBody>
        )
      )}
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />
      <DisableDialog
        open={disabling}
        onOpenChange={setDisabling}
        onDone={() => {
          setDisabling(false);
          toast.success("Two-factor sign-in is off");
          void refresh();
        }}
      />
    </Card>
  );
}

"use client";

import { LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { Button } from "@/components/ui/button";

/** Signs out, then opens sign-in for the invited address with the invitation as the way back. */
export function SwitchAccountButton({ email, returnTo, label = "Sign out and switch account" }: { email: string; returnTo: string; label?: string }) {
  return (
    <Button
      size="lg"
      className="w-full"
      onClick={() => void signOut({ callbackUrl: `/sign-in?email=${encodeURIComponent(email)}&callbackUrl=${encodeURIComponent(returnTo)}` })}
    >
      <LogOut aria-hidden />
      {label}
    </Button>
  );
}

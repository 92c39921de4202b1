import type { ReactNode } from "react";
import { Logo } from "@/components/shell/logo";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-zinc-50">
      <div className="flex flex-1 flex-col items-center px-4 pt-16 pb-12 sm:pt-24">
        <Logo className="mb-8" href="/" />
        <main className="w-full max-w-[400px]">{children}</main>
      </div>
      <footer className="pb-6 text-center text-xs text-zinc-400">Broadcasts and sales sequences for teams.</footer>
    </div>
  );
}

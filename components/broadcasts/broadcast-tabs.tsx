"use client";

import { BarChart3, PencilLine } from "lucide-react";
import dynamic from "next/dynamic";
import { useSearchParams } from "next/navigation";
import { useState, type ReactNode } from "react";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { Broadcast } from "./broadcast-types";

type Tab = "content" | "report";

// The report (its figures, tables, A/B comparison and resend) loads when its tab is first opened, not with the editor.
const BroadcastReportView = dynamic(() => import("@/components/reports/broadcast-report").then((m) => m.BroadcastReportView), {
  ssr: false,
  loading: () => <p className="py-16 text-center text-sm text-zinc-500">Loading the report…</p>,
});

/**
 * The broadcast page's tabs: its content and settings (the children), and its report. `?tab=report`
 * opens the report, and the address follows the tab so that a report can be linked to.
 */
export function BroadcastTabs({ broadcast, children }: { broadcast: Broadcast; children: ReactNode }) {
  const searchParams = useSearchParams();
  const [tab, setTab] = useState<Tab>(searchParams.get("tab") === "report" ? "report" : "content");
  const change = (value: string) => {
    const next = value === "report" ? "report" : "content";
    setTab(next);
    const url = new URL(window.location.href);
    if (next === "report") url.searchParams.set("tab", "report");
    else url.searchParams.delete("tab");
    window.history.replaceState(window.history.state, "", url);
  };
  return (
    <Tabs value={tab} onValueChange={change}>
      <TabsList aria-label="Broadcast">
        <TabsTrigger value="content">
          <PencilLine aria-hidden />
          Content and settings
        </TabsTrigger>
        <TabsTrigger value="report">
          <BarChart3 aria-hidden />
          Report
        </TabsTrigger>
      </TabsList>
      {/* Kept mounted while the report shows: the form keeps its fields, and Save in the header its form. */}
      <TabsContent value="content" forceMount className="data-[state=inactive]:hidden">
        {children}
      </TabsContent>
      <TabsContent value="report">{tab === "report" && <BroadcastReportView broadcast={broadcast} />}</TabsContent>
    </Tabs>
  );
}

"use client";

import { BarChart3, PencilLine } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useState, type ReactNode } from "react";
import { BroadcastReportView } from "@/components/reports/broadcast-report";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { Broadcast } from "./broadcast-types";

type Tab = "content" | "report";

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

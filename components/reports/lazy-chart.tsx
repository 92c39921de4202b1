"use client";

import dynamic from "next/dynamic";
import { Skeleton } from "@/components/ui/skeleton";

/** The timeline chart, fetched with its charting library only when a report or the overview shows it. */
export const LazyTimelineChart = dynamic(() => import("./timeline-chart"), {
  ssr: false,
  loading: () => <Skeleton className="h-72 w-full" />,
});
export type { ChartSeries } from "./timeline-chart";

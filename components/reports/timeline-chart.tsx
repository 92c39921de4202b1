"use client";

// Loaded on demand (next/dynamic) by the report and the overview: recharts is the heaviest part
// of these screens and nothing else needs it.
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export type ChartSeries = { key: string; label: string; color: string; kind: "bar" | "line"; axis?: "left" | "right" };

/** Counts over time: bars and lines over one x axis; a second axis on the right for a series of another scale. */
export default function TimelineChart({ data, series, label }: { data: Record<string, string | number>[]; series: ChartSeries[]; label: string }) {
  const right = series.some((s) => s.axis === "right");
  return (
    <div className="h-72 w-full" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#71717a" }} tickLine={false} axisLine={{ stroke: "#d4d4d8" }} minTickGap={24} />
          <YAxis yAxisId="left" allowDecimals={false} tick={{ fontSize: 11, fill: "#71717a" }} tickLine={false} axisLine={false} width={48} />
          {right && (
            <YAxis
              yAxisId="right"
              orientation="right"
              allowDecimals={false}
              tick={{ fontSize: 11, fill: "#71717a" }}
              tickLine={false}
              axisLine={false}
              width={48}
            />
          )}
          <Tooltip contentStyle={{ fontSize: 12, borderRadius: 8, borderColor: "#e4e4e7" }} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {series.map((s) =>
            s.kind === "bar" ? (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                yAxisId={s.axis ?? "left"}
                fill={s.color}
                radius={[3, 3, 0, 0]}
                maxBarSize={28}
                isAnimationActive={false}
              />
            ) : (
              <Line
                key={s.key}
                dataKey={s.key}
                name={s.label}
                yAxisId={s.axis ?? "left"}
                stroke={s.color}
                strokeWidth={2}
                dot={false}
                type="monotone"
                isAnimationActive={false}
              />
            ),
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

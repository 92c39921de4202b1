/** A record's fields as label over value, one under the other (the Details cards). */
export function DetailList({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <dl className="flex flex-col gap-2.5">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs text-zinc-500">{label}</dt>
          <dd className="text-[13px] break-words text-zinc-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

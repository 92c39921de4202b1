"use client";

import { CalendarClock, FolderTree, Plus, Users, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { NativeSelect, type SelectOption } from "@/components/ui/select";
import { cn } from "@/lib/client/cn";
import {
  conditionNode,
  emptyGroup,
  EVENT_SUGGESTIONS,
  kindOf,
  newFieldCondition,
  opChoices,
  valueInput,
  withField,
  type ConditionDraft,
  type DraftNode,
  type EventDraft,
  type FieldChoice,
  type FieldDraft,
  type GroupDraft,
  type GroupMode,
} from "./filter-model";

/** What the builder offers besides fields: segments to include, broadcasts an email event can be about. */
export type BuilderOptions = {
  fields: FieldChoice[];
  segments: SelectOption[];
  broadcasts: SelectOption[];
  /** Problems the server named, by node id. */
  problems?: Map<string, string>;
  /** Node ids of conditions still missing a value. */
  incomplete?: string[];
};

// Groups nest one level under the root: with "none of" taking two levels of the language, that
// stays within its five, and segments can include segments for anything deeper.
const MAX_GROUP_LEVEL = 1;

const modeOptions: SelectOption[] = [
  { value: "all", label: "all" },
  { value: "any", label: "any" },
  { value: "none", label: "none" },
];

const booleanOptions: SelectOption[] = [
  { value: "true", label: "yes" },
  { value: "false", label: "no" },
];

function replaceNode(group: GroupDraft, id: string, next: DraftNode | null): GroupDraft {
  return {
    ...group,
    children: group.children.flatMap((child) => {
      if (child.id === id) return next ? [next] : [];
      return child.kind === "group" ? [replaceNode(child, id, next)] : [child];
    }),
  };
}

function FieldRow({ draft, options, onChange, label }: { draft: FieldDraft; options: BuilderOptions; onChange: (next: FieldDraft) => void; label: string }) {
  const kind = kindOf(draft.field, options.fields);
  const input = valueInput(kind, draft.op);
  const sections = ["Contact", "Properties", "Other metadata"] as const;
  const known = options.fields.some((choice) => choice.value === draft.field);
  return (
    <>
      <select
        aria-label={`${label}: field`}
        value={draft.field}
        onChange={(event) => onChange(withField(draft, event.target.value, options.fields))}
        className="h-9 min-w-36 rounded-md border border-zinc-300 bg-white px-2 text-sm text-zinc-900 shadow-xs focus-visible:border-brand-500 focus-visible:outline-none"
      >
        {!known && <option value={draft.field}>{draft.field}</option>}
        {sections.map((section) => {
          const choices = options.fields.filter((choice) => choice.section === section);
          return choices.length ? (
            <optgroup key={section} label={section}>
              {choices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </optgroup>
          ) : null;
        })}
      </select>
      <NativeSelect
        aria-label={`${label}: comparison`}
        className="min-w-36"
        value={draft.op}
        onChange={(event) => onChange({ ...draft, op: event.target.value as FieldDraft["op"], value: input === "boolean" ? draft.value : draft.value })}
        options={opChoices(kind)}
      />
      {input === "boolean" && (
        <NativeSelect
          aria-label={`${label}: value`}
          className="w-24"
          value={draft.value || "true"}
          onChange={(event) => onChange({ ...draft, value: event.target.value })}
          options={booleanOptions}
        />
      )}
      {input === "days" && (
        <span className="flex items-center gap-2 text-sm text-zinc-600">
          <Input
            aria-label={`${label}: days`}
            type="number"
            min={0}
            className="w-24"
            value={draft.value}
            onChange={(event) => onChange({ ...draft, value: event.target.value })}
          />
          {draft.op === "within_days" ? "days" : "days ago"}
        </span>
      )}
      {(input === "text" || input === "number" || input === "date" || input === "list") && (
        <Input
          aria-label={`${label}: value`}
          type={input === "number" ? "number" : input === "date" ? "date" : "text"}
          step={input === "number" ? "any" : undefined}
          className="min-w-40 flex-1"
          placeholder={input === "list" ? "comma-separated values" : input === "number" ? "0" : "value"}
          value={draft.value}
          onChange={(event) => onChange({ ...draft, value: event.target.value })}
        />
      )}
    </>
  );
}

function EventRow({ draft, options, onChange, label }: { draft: EventDraft; options: BuilderOptions; onChange: (next: EventDraft) => void; label: string }) {
  const listId = `events-${label.replace(/\W/g, "")}`;
  return (
    <>
      <span className="flex h-9 items-center gap-1.5 text-sm font-medium text-zinc-700">
        <CalendarClock className="size-4 text-zinc-400" aria-hidden />
        Event
      </span>
      <Input
        aria-label={`${label}: event`}
        list={listId}
        className="w-44"
        placeholder="email.opened"
        value={draft.event}
        onChange={(event) => onChange({ ...draft, event: event.target.value })}
      />
      <datalist id={listId}>
        {EVENT_SUGGESTIONS.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <NativeSelect
        aria-label={`${label}: happened`}
        className="w-40"
        value={draft.happened ? "happened" : "not_happened"}
        onChange={(event) => onChange({ ...draft, happened: event.target.value === "happened" })}
        options={[
          { value: "happened", label: "happened" },
          { value: "not_happened", label: "did not happen" },
        ]}
      />
      <span className="flex items-center gap-2 text-sm text-zinc-600">
        at least
        <Input
          aria-label={`${label}: at least`}
          type="number"
          min={1}
          className="w-20"
          placeholder="1"
          value={draft.countGte}
          onChange={(event) => onChange({ ...draft, countGte: event.target.value })}
        />
        times in the last
        <Input
          aria-label={`${label}: in the last days`}
          type="number"
          min={1}
          className="w-20"
          placeholder="any"
          value={draft.withinDays}
          onChange={(event) => onChange({ ...draft, withinDays: event.target.value })}
        />
        days
      </span>
      {draft.event.startsWith("email.") && options.broadcasts.length > 0 && (
        <NativeSelect
          aria-label={`${label}: broadcast`}
          className="w-48"
          value={draft.broadcastId}
          onChange={(event) => onChange({ ...draft, broadcastId: event.target.value })}
          options={[{ value: "", label: "of any email" }, ...options.broadcasts]}
        />
      )}
    </>
  );
}

function ConditionRow({
  node,
  options,
  label,
  onChange,
  onRemove,
}: {
  node: { id: string; condition: ConditionDraft };
  options: BuilderOptions;
  label: string;
  onChange: (next: ConditionDraft) => void;
  onRemove: () => void;
}) {
  const { condition } = node;
  const problem = options.problems?.get(node.id);
  const incomplete = options.incomplete?.includes(node.id);
  return (
    <li data-testid="filter-condition">
      <div
        className={cn(
          "flex flex-wrap items-center gap-2 rounded-lg border bg-white px-2.5 py-2",
          problem ? "border-red-300" : incomplete ? "border-amber-200" : "border-zinc-200",
        )}
      >
        {condition.type === "field" && <FieldRow draft={condition} options={options} onChange={onChange} label={label} />}
        {condition.type === "event" && <EventRow draft={condition} options={options} onChange={onChange} label={label} />}
        {condition.type === "segment" && (
          <>
            <span className="flex h-9 items-center gap-1.5 text-sm font-medium text-zinc-700">
              <Users className="size-4 text-zinc-400" aria-hidden />
              Segment
            </span>
            <NativeSelect
              aria-label={`${label}: membership`}
              className="w-32"
              value={condition.negate ? "out" : "in"}
              onChange={(event) => onChange({ ...condition, negate: event.target.value === "out" })}
              options={[
                { value: "in", label: "is in" },
                { value: "out", label: "is not in" },
              ]}
            />
            <NativeSelect
              aria-label={`${label}: segment`}
              className="min-w-48"
              value={condition.segmentId}
              onChange={(event) => onChange({ ...condition, segmentId: event.target.value })}
              options={[{ value: "", label: "Choose a segment…" }, ...options.segments]}
            />
          </>
        )}
        <Button variant="ghost" size="icon" className="ml-auto size-8" aria-label={`Remove ${label}`} onClick={onRemove}>
          <X aria-hidden />
        </Button>
      </div>
      {problem && <p className="mt-1 text-[13px] font-medium text-red-600">{problem}</p>}
    </li>
  );
}

function GroupEditor({
  group,
  level,
  options,
  onChange,
  onRemove,
  label,
}: {
  group: GroupDraft;
  level: number;
  options: BuilderOptions;
  onChange: (next: GroupDraft) => void;
  onRemove?: () => void;
  label: string;
}) {
  const add = (node: DraftNode) => onChange({ ...group, children: [...group.children, node] });
  const replace = (id: string, next: DraftNode | null) => onChange(replaceNode(group, id, next));
  const problem = options.problems?.get(group.id);
  return (
    <div className={cn(level > 0 && "rounded-lg border border-dashed border-zinc-300 bg-zinc-50/60 p-3")} data-testid="filter-group">
      <div className="mb-2 flex flex-wrap items-center gap-2 text-sm text-zinc-700">
        <span>Contacts matching</span>
        <NativeSelect
          aria-label={`${label}: match`}
          className="w-24"
          value={group.mode}
          onChange={(event) => onChange({ ...group, mode: event.target.value as GroupMode })}
          options={modeOptions}
        />
        <span>of these conditions</span>
        {onRemove && (
          <Button variant="ghost" size="sm" className="ml-auto" onClick={onRemove}>
            <X aria-hidden />
            Remove group
          </Button>
        )}
      </div>
      {problem && <p className="mb-2 text-[13px] font-medium text-red-600">{problem}</p>}
      {group.children.length === 0 && (
        <p className="mb-2 text-[13px] text-zinc-500">
          {level === 0
            ? "No conditions yet: every contact matches. Add a condition to narrow it down."
            : "An empty group matches everyone (all) or no one (any)."}
        </p>
      )}
      <ul className="flex flex-col gap-2">
        {group.children.map((child, i) => {
          const childLabel = `${label} ${child.kind === "group" ? "group" : "condition"} ${i + 1}`;
          return child.kind === "group" ? (
            <li key={child.id}>
              <GroupEditor
                group={child}
                level={level + 1}
                options={options}
                label={childLabel}
                onChange={(next) => replace(child.id, next)}
                onRemove={() => replace(child.id, null)}
              />
            </li>
          ) : (
            <ConditionRow
              key={child.id}
              node={child}
              options={options}
              label={childLabel}
              onChange={(condition) => replace(child.id, { ...child, condition })}
              onRemove={() => replace(child.id, null)}
            />
          );
        })}
      </ul>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => add(newFieldCondition())}>
          <Plus aria-hidden />
          Condition
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => add(conditionNode({ type: "event", event: "email.opened", happened: true, countGte: "", withinDays: "30", broadcastId: "" }))}
        >
          <CalendarClock aria-hidden />
          Event
        </Button>
        {options.segments.length > 0 && (
          <Button variant="secondary" size="sm" onClick={() => add(conditionNode({ type: "segment", segmentId: "", negate: false }))}>
            <Users aria-hidden />
            Segment
          </Button>
        )}
        {level < MAX_GROUP_LEVEL && (
          <Button variant="ghost" size="sm" onClick={() => add({ ...emptyGroup("any"), children: [newFieldCondition()] })}>
            <FolderTree aria-hidden />
            Group
          </Button>
        )}
      </div>
    </div>
  );
}

/**
 * Builds a filter of the filter language: conditions on contact fields, tags, typed properties
 * (inputs and comparisons by type), segment membership and events, in all/any/none groups.
 */
export function FilterBuilder({ value, onChange, options }: { value: GroupDraft; onChange: (next: GroupDraft) => void; options: BuilderOptions }) {
  return <GroupEditor group={value} level={0} options={options} onChange={onChange} label="Filter" />;
}

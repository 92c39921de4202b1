"use client";

import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { useEditorLocked } from "./editor-lock";
import { TrackingFields } from "./tracking-fields";

export function TrackingCard() {
  const locked = useEditorLocked();
  return (
    <Card>
      <CardHeader title="Tracking" description="Opens, clicks and the UTM parameters your analytics read from each link." />
      <CardBody>
        <TrackingFields idPrefix="broadcast" disabled={locked} />
      </CardBody>
    </Card>
  );
}

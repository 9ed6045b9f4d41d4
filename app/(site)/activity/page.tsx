// /activity — the connected wallet's recorded deposits, withdrawal requests and claims.
import type { Metadata } from "next";

import { ActivityFeature } from "@/components/activity/activity-feature";

export const metadata: Metadata = { title: "Activity" };

export default function ActivityPage() {
  return <ActivityFeature />;
}

// A V8 CPU profile (.cpuprofile, as node --cpu-prof or an inspector Session writes it) reduced to what
// `npm run bench:api` prints with BENCH_PROFILE=1: the functions with the most self time, and the
// heaviest paths by total time below the request's entry point, so per-request work shows by name.
import { relative } from "node:path";

import type { Profiler } from "node:inspector";

interface Frame {
  name: string;
  place: string;
}

function frameOf(node: Profiler.ProfileNode): Frame {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url === "" ? "" : relative(process.cwd(), url.replace(/^file:\/\//, ""));
  return {
    name: functionName === "" ? "(anonymous)" : functionName,
    place: file === "" ? "" : `${file.replace(/^node_modules\//, "~/")}:${lineNumber + 1}`,
  };
}

/** Self time per node id, in microseconds, from the profile's samples and their time deltas. */
function selfTimes(profile: Profiler.Profile): Map<number, number> {
  const self = new Map<number, number>();
  const { samples = [], timeDeltas = [] } = profile;
  samples.forEach((id, index) => {
    // A sample's time is the delta to the next one.
    const delta = timeDeltas[index + 1] ?? 0;
    self.set(id, (self.get(id) ?? 0) + Math.max(0, delta));
  });
  return self;
}

export interface ProfileSummary {
  totalMicros: number;
  /** Idle, program and GC, by name. */
  special: Record<string, number>;
  /** The functions with the most self time (one line per name and place). */
  topSelf: { name: string; place: string; micros: number }[];
  /** The project's own functions (outside node_modules and node:) with the most total time. */
  topTotal: { name: string; place: string; micros: number }[];
}

/** Total time per function: each sample counts once for every distinct function on its stack. */
function totalTimes(
  profile: Profiler.Profile,
  self: Map<number, number>,
): Map<string, { name: string; place: string; micros: number }> {
  const parent = new Map<number, number>();
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }
  const totals = new Map<string, { name: string; place: string; micros: number }>();
  for (const [id, micros] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = nodes.get(at);
      if (node === undefined) {
        break;
      }
      const frame = frameOf(node);
      const key = `${frame.name} ${frame.place}`;
      if (seen.has(key)) {
        continue;
      }
      seen.add(key);
      const entry = totals.get(key) ?? { ...frame, micros: 0 };
      entry.micros += micros;
      totals.set(key, entry);
    }
  }
  return totals;
}

export function summarizeProfile(profile: Profiler.Profile, top = 20): ProfileSummary {
  const self = selfTimes(profile);
  const byFunction = new Map<string, { name: string; place: string; micros: number }>();
  const special: Record<string, number> = {};
  let totalMicros = 0;
  for (const node of profile.nodes) {
    const micros = self.get(node.id) ?? 0;
    totalMicros += micros;
    const frame = frameOf(node);
    if (frame.place === "" && frame.name.startsWith("(")) {
      special[frame.name] = (special[frame.name] ?? 0) + micros;
      continue;
    }
    const key = `${frame.name} ${frame.place}`;
    const entry = byFunction.get(key) ?? { ...frame, micros: 0 };
    entry.micros += micros;
    byFunction.set(key, entry);
  }
  const topSelf = [...byFunction.values()].sort((a, b) => b.micros - a.micros).slice(0, top);
  const ours = (place: string): boolean =>
    place !== "" && !place.startsWith("~/") && !place.startsWith("node:") && !place.startsWith(".next/");
  const topTotal = [...totalTimes(profile, self).values()]
    .filter((entry) => ours(entry.place))
    .sort((a, b) => b.micros - a.micros)
    .slice(0, top);
  return { totalMicros, special, topSelf, topTotal };
}

/** Lines to print: busy time (not idle), then the top self-time functions as shares of it. */
export function formatProfileSummary(summary: ProfileSummary): string[] {
  const idle = summary.special["(idle)"] ?? 0;
  const busy = Math.max(1, summary.totalMicros - idle);
  const share = (micros: number): string => `${((micros / busy) * 100).toFixed(1).padStart(5)}%`;
  const lines = [
    `busy ${(busy / 1000).toFixed(0)} ms of ${(summary.totalMicros / 1000).toFixed(0)} ms; ` +
      Object.entries(summary.special)
        .filter(([name]) => name !== "(idle)")
        .map(([name, micros]) => `${name} ${share(micros).trim()}`)
        .join(", "),
  ];
  lines.push("self time:");
  for (const entry of summary.topSelf) {
    lines.push(`${share(entry.micros)}  ${entry.name}  ${entry.place}`);
  }
  lines.push("total time, the project's functions:");
  for (const entry of summary.topTotal) {
    lines.push(`${share(entry.micros)}  ${entry.name}  ${entry.place}`);
  }
  return lines;
}

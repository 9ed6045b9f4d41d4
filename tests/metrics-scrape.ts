// Scrapes a /metrics endpoint and reads it back with a Prometheus text parser
// (parse-prometheus-text-format, prom2json's shape), so tests check what Prometheus would see.
import parsePrometheusTextFormat, {
  type PrometheusFamily,
  type PrometheusSample,
} from "parse-prometheus-text-format";

export interface Scrape {
  status: number;
  contentType: string | null;
  families: PrometheusFamily[];
}

export async function scrapeMetrics(url: string, token?: string): Promise<Scrape> {
  const response = await fetch(url, {
    headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    families: response.status === 200 ? parsePrometheusTextFormat(text) : [],
  };
}

export function family(scrape: Scrape, name: string): PrometheusFamily | undefined {
  return scrape.families.find((entry) => entry.name === name);
}

/** The samples of `name` whose labels include every pair of `labels`. */
export function samples(
  scrape: Scrape,
  name: string,
  labels: Record<string, string> = {},
): PrometheusSample[] {
  return (family(scrape, name)?.metrics ?? []).filter((sample) =>
    Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value),
  );
}

/** The value of the one sample of `name` with `labels` (a histogram's count); undefined when absent. */
export function sampleValue(
  scrape: Scrape,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const [first] = samples(scrape, name, labels);
  if (first === undefined) {
    return undefined;
  }
  return Number(first.value ?? first.count);
}

// Every partner route, with a request that passes validation for a given vault and wallet, taken from
// the endpoint definitions the router is built from: the protocol test sends each for an unknown vault.
import type { Names } from "../../lib/api/endpoint";
import { ENDPOINTS } from "../../lib/api/endpoints";

export interface PartnerRoute {
  name: string;
  method: string;
  scope: "read" | "write";
  names: Names;
  build(vault: string, wallet: string): { path: string; body?: unknown };
}

export const PARTNER_ROUTES: PartnerRoute[] = ENDPOINTS.flatMap((endpoint) => {
  const { sample, scope } = endpoint;
  if (endpoint.audience !== "partner" || sample === null || scope === null) return [];
  return [
    {
      name: `${endpoint.method} ${endpoint.path}`,
      method: endpoint.method,
      scope,
      names: endpoint.names,
      build: (vault: string, wallet: string) => sample({ vault, wallet }),
    },
  ];
});

// The route table: every spec path, its audience and its method handlers. app/api/**/route.ts files
// re-export one entry each (lib/api/endpoints/); the node:http host serves the whole table.
import { getHistory } from "./history/get-history";
import { postHistory } from "./history/post-history";
import { getHealth } from "./ops/get-health";
import { getOpenApi } from "./ops/get-openapi";
import { getCirculatingSupply } from "./public/get-circulating-supply";
import { getOracle } from "./public/get-oracle";
import type { RouteDefinition } from "./router";
import { getWithdraw } from "./vault/get-withdraw";
import { postDeposit } from "./vault/post-deposit";
import { postWithdraw } from "./vault/post-withdraw";

export const ROUTES = {
  deposit: { pattern: "/api/vault/:vault_id/deposit", audience: "partner", methods: { POST: postDeposit } },
  withdraw: {
    pattern: "/api/vault/:vault_id/withdraw",
    audience: "partner",
    methods: { GET: getWithdraw, POST: postWithdraw, PUT: postWithdraw },
  },
  history: { pattern: "/api/history", audience: "partner", methods: { GET: getHistory, POST: postHistory } },
  circulatingSupply: {
    pattern: "/api/circulating-supply",
    audience: "public",
    methods: { GET: getCirculatingSupply },
  },
  oracle: { pattern: "/api/oracle", audience: "public", methods: { GET: getOracle } },
  health: { pattern: "/api/health", audience: "public", methods: { GET: getHealth } },
  openapi: { pattern: "/api/openapi.json", audience: "public", methods: { GET: getOpenApi } },
} satisfies Record<string, RouteDefinition>;

export const ROUTE_TABLE: readonly RouteDefinition[] = Object.values(ROUTES);

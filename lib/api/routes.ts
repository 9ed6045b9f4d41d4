// The route table: every spec path, its audience and its method handlers. app/api/**/route.ts files
// re-export one entry each (lib/api/endpoints/); the node:http host serves the whole table.
import {
  getActionsJson,
  getClaimAction,
  getDepositAction,
  getWithdrawAction,
  postClaimAction,
  postConfirmAction,
  postDepositAction,
  postWithdrawAction,
} from "./actions/vault-actions";
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
import { getAllocations } from "./vaults/get-allocations";
import { getNav } from "./vaults/get-nav";
import { getNavHistory } from "./vaults/get-nav-history";
import { getPnlHistory } from "./vaults/get-pnl-history";
import { getPortfolio } from "./vaults/get-portfolio";
import { getPortfolioHistory } from "./vaults/get-portfolio-history";
import { getStats } from "./vaults/get-stats";
import { getVault } from "./vaults/get-vault";
import { getVaults } from "./vaults/get-vaults";

export const ROUTES = {
  deposit: { pattern: "/api/vault/:vault_id/deposit", audience: "partner", methods: { POST: postDeposit } },
  withdraw: {
    pattern: "/api/vault/:vault_id/withdraw",
    audience: "partner",
    methods: { GET: getWithdraw, POST: postWithdraw, PUT: postWithdraw },
  },
  history: { pattern: "/api/history", audience: "partner", methods: { GET: getHistory, POST: postHistory } },
  vaults: { pattern: "/api/vaults", audience: "partner", methods: { GET: getVaults } },
  vault: { pattern: "/api/vault/:vault_id", audience: "partner", methods: { GET: getVault } },
  nav: { pattern: "/api/vault/:vault_id/nav", audience: "partner", methods: { GET: getNav } },
  stats: { pattern: "/api/vault/:vault_id/stats", audience: "partner", methods: { GET: getStats } },
  allocations: {
    pattern: "/api/vault/:vault_id/allocations",
    audience: "partner",
    methods: { GET: getAllocations },
  },
  portfolio: { pattern: "/api/portfolio", audience: "partner", methods: { GET: getPortfolio } },
  portfolioHistory: {
    pattern: "/api/vault/:vault_id/portfolio-history",
    audience: "partner",
    methods: { GET: getPortfolioHistory },
  },
  pnlHistory: {
    pattern: "/api/vault/:vault_id/pnl-history",
    audience: "partner",
    methods: { GET: getPnlHistory },
  },
  navHistory: {
    pattern: "/api/vault/:vault_id/nav-history",
    audience: "partner",
    methods: { GET: getNavHistory },
  },
  circulatingSupply: {
    pattern: "/api/circulating-supply",
    audience: "public",
    methods: { GET: getCirculatingSupply },
  },
  oracle: { pattern: "/api/oracle", audience: "public", methods: { GET: getOracle } },
  health: { pattern: "/api/health", audience: "public", methods: { GET: getHealth } },
  openapi: { pattern: "/api/openapi.json", audience: "public", methods: { GET: getOpenApi } },
  actionsJson: { pattern: "/actions.json", audience: "actions", methods: { GET: getActionsJson } },
  depositAction: {
    pattern: "/api/actions/vault/:vault_id/deposit",
    audience: "actions",
    methods: { GET: getDepositAction, POST: postDepositAction },
  },
  withdrawAction: {
    pattern: "/api/actions/vault/:vault_id/withdraw",
    audience: "actions",
    methods: { GET: getWithdrawAction, POST: postWithdrawAction },
  },
  claimAction: {
    pattern: "/api/actions/vault/:vault_id/claim",
    audience: "actions",
    methods: { GET: getClaimAction, POST: postClaimAction },
  },
  confirmAction: {
    pattern: "/api/actions/vault/:vault_id/confirm",
    audience: "actions",
    methods: { POST: postConfirmAction },
  },
} satisfies Record<string, RouteDefinition>;

export const ROUTE_TABLE: readonly RouteDefinition[] = Object.values(ROUTES);

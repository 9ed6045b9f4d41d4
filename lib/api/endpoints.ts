// Every endpoint of the API, one definition each (lib/api/endpoint.ts). The route table
// (routes.ts), the OpenAPI document (built by openapi.ts from this list, here), the Next.js route files
// (app/api/**, which hand every request to that table) and the security suite
// (tests/api/security.test.ts) all read this list.
//
// Adding an endpoint:
//   1. Write one file beside its peers (lib/api/<resource>/<verb>-<noun>.ts) exporting
//      `partnerEndpoint({ operationId, method, path, summary, scope, params?, input, response,
//      statuses, names, target, sample, handler })` — or `publicEndpoint` (keyless, bare bodies) or
//      `opsEndpoint`. The handler's return must match `response` (it does not compile otherwise);
//      `statuses` lists what it answers beyond its audience's common ones (endpoint.ts);
//      `sample` is a request that passes validation, which the security suite sends.
//   2. Add it to ENDPOINTS below.
//   3. A Next.js route file only when the path is new: app/api/<path>/route.ts re-exporting
//      "@/lib/api/next-route" (the catch-all answers it otherwise, so that step only keeps the
//      file layout readable).
//   4. Tests: its happy and error cases; the security suite covers it by itself.
import {
  getActionsJson,
  getCancelAction,
  getClaimAction,
  getDepositAction,
  getWithdrawAction,
  postCancelAction,
  postClaimAction,
  postConfirmAction,
  postDepositAction,
  postWithdrawAction,
} from "./actions/vault-actions";
import { getWithdraw } from "./deposit-withdraw/get-withdraw";
import { postDeposit } from "./deposit-withdraw/post-deposit";
import { postWithdraw, putWithdraw } from "./deposit-withdraw/post-withdraw";
import type { EndpointDefinition } from "./endpoint";
import { getEvents } from "./events/get-events";
import { getHistory } from "./history/get-history";
import { postHistory } from "./history/post-history";
import { buildOpenApiDocument } from "./openapi";
import { getHealth } from "./ops/get-health";
import { getDocs, getDocsScript, getDocsStart, getDocsStyle } from "./ops/get-docs";
import { openApiEndpoint } from "./ops/get-openapi";
import { getCirculatingSupply } from "./public/get-circulating-supply";
import { getOracle } from "./public/get-oracle";
import { getAllocations } from "./vaults/get-allocations";
import { getNav } from "./vaults/get-nav";
import { getNavHistory } from "./vaults/get-nav-history";
import { getPnlHistory } from "./vaults/get-pnl-history";
import { getPortfolio } from "./vaults/get-portfolio";
import { getPortfolioHistory } from "./vaults/get-portfolio-history";
import { getStats } from "./vaults/get-stats";
import { getVault } from "./vaults/get-vault";
import { getVaults } from "./vaults/get-vaults";
import {
  deleteWebhookById,
  getDeliveries,
  getWebhookById,
  getWebhooks,
  patchWebhook,
  postRetryDelivery,
  postRotateSecret,
  postTestEvent,
  postWebhook,
} from "./webhooks/webhooks";

// The document lists every endpoint, its own included: handed in, not imported, so no circle.
const getOpenApi = openApiEndpoint(openApiDocument);

export const ENDPOINTS: readonly EndpointDefinition[] = [
  postDeposit,
  getWithdraw,
  postWithdraw,
  putWithdraw,
  postHistory,
  getHistory,
  getVaults,
  getVault,
  getNav,
  getStats,
  getAllocations,
  getPortfolio,
  getPortfolioHistory,
  getPnlHistory,
  getNavHistory,
  postWebhook,
  getWebhooks,
  getWebhookById,
  patchWebhook,
  deleteWebhookById,
  postRotateSecret,
  postTestEvent,
  getDeliveries,
  postRetryDelivery,
  getEvents,
  getCirculatingSupply,
  getOracle,
  getHealth,
  getOpenApi,
  getDocs,
  getDocsScript,
  getDocsStyle,
  getDocsStart,
  getActionsJson,
  getDepositAction,
  postDepositAction,
  getWithdrawAction,
  postWithdrawAction,
  getClaimAction,
  postClaimAction,
  getCancelAction,
  postCancelAction,
  postConfirmAction,
];

let documentText: string | null = null;

/** The OpenAPI document of ENDPOINTS as JSON text, built once (GET /api/openapi.json answers it). */
export function openApiDocument(): string {
  documentText ??= JSON.stringify(buildOpenApiDocument(ENDPOINTS));
  return documentText;
}

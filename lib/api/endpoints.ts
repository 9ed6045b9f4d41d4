// Every endpoint of the API, one definition each (lib/api/endpoint.ts). The route table
// (routes.ts), the OpenAPI document (built by openapi.ts from this list, here), Next.js's one catch-all
// route file (app/api/[...path], which hands every request to that table) and the security suite
// (tests/api/security.test.ts) all read this list.
//
// Adding an endpoint:
//   1. Write one file beside its peers, named after its operation id (lib/api/<resource>/<operation-id>.ts,
//      one endpoint per file; what several share goes in a file of its own beside them), exporting
//      `partnerEndpoint({ operationId, method, path, summary, scope, params?, input, response,
//      statuses, names, target, sample, handler })` — or `publicEndpoint` (keyless, bare bodies) or
//      `opsEndpoint`. The handler's return must match `response` (it does not compile otherwise);
//      `statuses` lists what it answers beyond its audience's common ones (endpoint.ts);
//      `sample` is a request that passes validation, which the security suite sends.
//   2. Add it to ENDPOINTS below.
//   3. Tests: its happy and error cases; the security suite covers it by itself.
import { getActionsJson } from "./actions/get-actions-json";
import { getCancelAction } from "./actions/get-cancel-action";
import { getClaimAction } from "./actions/get-claim-action";
import { getDepositAction } from "./actions/get-deposit-action";
import { getWithdrawAction } from "./actions/get-withdraw-action";
import { postCancelAction } from "./actions/post-cancel-action";
import { postClaimAction } from "./actions/post-claim-action";
import { postConfirmAction } from "./actions/post-confirm-action";
import { postDepositAction } from "./actions/post-deposit-action";
import { postWithdrawAction } from "./actions/post-withdraw-action";
import { getWithdraw } from "./deposit-withdraw/get-withdrawal-status";
import { postDeposit } from "./deposit-withdraw/build-deposit";
import { postWithdraw } from "./deposit-withdraw/build-withdraw";
import { putWithdraw } from "./deposit-withdraw/build-withdraw-put";
import type { EndpointDefinition } from "./endpoint";
import { getEvents } from "./events/list-events";
import { getHistory } from "./history/list-history";
import { postHistory } from "./history/record-history";
import { buildOpenApiDocument } from "./openapi";
import { getHealth } from "./ops/get-health";
import { getPartnerEarnings } from "./partner/get-partner-earnings";
import { getDocs } from "./ops/get-api-reference";
import { getDocsScript } from "./ops/get-api-reference-script";
import { getDocsStart } from "./ops/get-api-reference-start";
import { getDocsStyle } from "./ops/get-api-reference-style";
import { openApiEndpoint } from "./ops/get-open-api-document";
import { getCirculatingSupply } from "./public/get-circulating-supply";
import { getOracle } from "./public/get-oracle";
import { getAllocations } from "./vaults/get-vault-allocations";
import { getNav } from "./vaults/get-vault-nav";
import { getNavHistory } from "./vaults/get-nav-history";
import { getPnlHistory } from "./vaults/get-pnl-history";
import { getPortfolio } from "./vaults/get-portfolio";
import { getPortfolioHistory } from "./vaults/get-portfolio-history";
import { getStats } from "./vaults/get-vault-stats";
import { getVault } from "./vaults/get-vault";
import { getVaults } from "./vaults/list-vaults";
import { deleteWebhookById } from "./webhooks/delete-webhook";
import { getDeliveries } from "./webhooks/list-webhook-deliveries";
import { getWebhookById } from "./webhooks/get-webhook";
import { getWebhooks } from "./webhooks/list-webhooks";
import { patchWebhook } from "./webhooks/update-webhook";
import { postRetryDelivery } from "./webhooks/retry-webhook-delivery";
import { postRotateSecret } from "./webhooks/rotate-webhook-secret";
import { postTestEvent } from "./webhooks/send-webhook-test";
import { postWebhook } from "./webhooks/create-webhook";

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
  getPartnerEarnings,
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

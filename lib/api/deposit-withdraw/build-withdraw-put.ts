// PUT /api/vault/{vault_id}/withdraw
import type { EndpointDefinition } from "../endpoint";
import { postWithdraw } from "./build-withdraw";

/** PUT is the spec's alias of POST: the same definition under another method. */
export const putWithdraw: EndpointDefinition = {
  ...postWithdraw,
  operationId: "buildWithdrawPut",
  method: "PUT",
  summary: "Alias of POST, identical behaviour",
  sample: ({ vault, wallet }) => ({
    path: `/api/vault/${vault}/withdraw`,
    body: { wallet, action: "claim" },
  }),
};

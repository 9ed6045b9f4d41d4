// Every partner route, with a request that passes validation for a given vault and wallet: the
// security suite runs its refusals over them, and the protocol test its unknown vault.
import { randomBytes } from "node:crypto";

import bs58 from "bs58";

export interface PartnerRoute {
  name: string;
  method: string;
  scope: "read" | "write";
  /** What the request names, checked against a key's restrictions (default: a vault and a wallet). */
  names?: "vault" | "wallet" | "nothing";
  /** A request that passes validation, for this vault and wallet. */
  build(vault: string, wallet: string): { path: string; body?: unknown };
}

const SIGNATURE = bs58.encode(randomBytes(64));

export const PARTNER_ROUTES: PartnerRoute[] = [
  {
    name: "POST deposit",
    method: "POST",
    scope: "write",
    build: (vault, wallet) => ({ path: `/api/vault/${vault}/deposit`, body: { wallet, amount: "1000000" } }),
  },
  {
    name: "GET withdraw",
    method: "GET",
    scope: "read",
    build: (vault, wallet) => ({ path: `/api/vault/${vault}/withdraw?wallet=${wallet}` }),
  },
  {
    name: "POST withdraw",
    method: "POST",
    scope: "write",
    build: (vault, wallet) => ({
      path: `/api/vault/${vault}/withdraw`,
      body: { wallet, sharesAmount: "1000000" },
    }),
  },
  {
    name: "PUT withdraw",
    method: "PUT",
    scope: "write",
    build: (vault, wallet) => ({ path: `/api/vault/${vault}/withdraw`, body: { wallet, action: "claim" } }),
  },
  {
    name: "POST history",
    method: "POST",
    scope: "write",
    build: (vault, wallet) => ({
      path: "/api/history",
      body: { wallet, vault_id: vault, signature: SIGNATURE },
    }),
  },
  {
    name: "GET history",
    method: "GET",
    scope: "read",
    build: (vault, wallet) => ({ path: `/api/history?wallet=${wallet}&vault_id=${vault}` }),
  },
  {
    name: "GET vaults",
    method: "GET",
    scope: "read",
    names: "nothing",
    build: () => ({ path: "/api/vaults" }),
  },
  {
    name: "GET vault",
    method: "GET",
    scope: "read",
    names: "vault",
    build: (vault) => ({ path: `/api/vault/${vault}` }),
  },
  {
    name: "GET nav",
    method: "GET",
    scope: "read",
    names: "vault",
    build: (vault) => ({ path: `/api/vault/${vault}/nav` }),
  },
  {
    name: "GET allocations",
    method: "GET",
    scope: "read",
    names: "vault",
    build: (vault) => ({ path: `/api/vault/${vault}/allocations` }),
  },
  {
    name: "GET portfolio",
    method: "GET",
    scope: "read",
    names: "wallet",
    build: (_vault, wallet) => ({ path: `/api/portfolio?wallet=${wallet}` }),
  },
  {
    name: "GET portfolio-history",
    method: "GET",
    scope: "read",
    build: (vault, wallet) => ({
      path: `/api/vault/${vault}/portfolio-history?wallet=${wallet}&interval=week`,
    }),
  },
  {
    name: "GET pnl-history",
    method: "GET",
    scope: "read",
    build: (vault, wallet) => ({ path: `/api/vault/${vault}/pnl-history?wallet=${wallet}` }),
  },
  {
    name: "GET nav-history",
    method: "GET",
    scope: "read",
    names: "vault",
    build: (vault) => ({ path: `/api/vault/${vault}/nav-history?interval=hour` }),
  },
  {
    name: "GET stats",
    method: "GET",
    scope: "read",
    names: "vault",
    build: (vault) => ({ path: `/api/vault/${vault}/stats` }),
  },
];

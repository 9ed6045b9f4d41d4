// /embed/vault/{id} for an address that holds no vault of this app (HTTP 404), inside the partner's
// frame. Rendered on the server, so its words are in the 404's own answer.
import { headers } from "next/headers";

import { VaultNotFound } from "@/components/vault/vault-not-found";
import { processConfig } from "@/lib/config";
import { PAGE_PATH_HEADER, lastPathSegment } from "@/lib/web/server-reads";

export default async function EmbedVaultNotFound() {
  const path = (await headers()).get(PAGE_PATH_HEADER);
  return (
    <main id="main" className="mx-auto max-w-5xl px-3 py-4 sm:px-5">
      <VaultNotFound id={lastPathSegment(path)} cluster={processConfig().web.client.cluster} embed />
    </main>
  );
}

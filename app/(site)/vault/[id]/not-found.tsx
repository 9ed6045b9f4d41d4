// /vault/{id} for an address that holds no vault of this app (the page calls notFound(): HTTP 404).
// Rendered on the server, so its words are in the 404's own answer.
import { headers } from "next/headers";

import { VaultNotFound } from "@/components/vault/vault-not-found";
import { processConfig } from "@/lib/config";
import { PAGE_PATH_HEADER, lastPathSegment } from "@/lib/web/server-reads";

export default async function VaultPageNotFound() {
  const path = (await headers()).get(PAGE_PATH_HEADER);
  return (
    <VaultNotFound id={lastPathSegment(path)} cluster={processConfig().web.client.cluster} embed={false} />
  );
}

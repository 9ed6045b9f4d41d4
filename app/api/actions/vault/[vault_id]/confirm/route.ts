// POST /api/actions/vault/{vault_id}/confirm (the Solana Actions chained callback)
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

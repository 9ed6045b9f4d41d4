// GET, POST and OPTIONS /api/actions/vault/{vault_id}/cancel (Solana Actions)
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

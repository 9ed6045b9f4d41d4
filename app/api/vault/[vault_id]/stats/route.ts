// GET /api/vault/{vault_id}/stats
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

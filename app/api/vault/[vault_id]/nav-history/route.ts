// GET /api/vault/{vault_id}/nav-history
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

// GET /api/vault/{vault_id}/portfolio-history
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

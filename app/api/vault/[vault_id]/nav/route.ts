// GET /api/vault/{vault_id}/nav
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

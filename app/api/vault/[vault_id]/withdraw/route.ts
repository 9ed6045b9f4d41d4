// GET, POST and PUT /api/vault/{vault_id}/withdraw
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

// POST /api/webhooks/{id}/rotate-secret
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

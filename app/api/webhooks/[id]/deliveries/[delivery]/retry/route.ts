// POST /api/webhooks/{id}/deliveries/{delivery}/retry
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

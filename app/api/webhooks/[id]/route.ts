// GET, PATCH and DELETE /api/webhooks/{id}
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

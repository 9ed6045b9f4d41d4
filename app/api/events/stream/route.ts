// GET /api/events/stream (the pages' server-sent events; lib/api/events/event-stream.ts)
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

// Any other /api path: the JSON 404 envelope (405 for other methods on a known path) under bare Next.js.
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

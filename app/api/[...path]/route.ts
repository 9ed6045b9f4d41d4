// Every /api path under Next.js alone (`next start` without scripts/web.ts): the process's API matches the
// path itself (lib/api/endpoints.ts), so this one file serves every endpoint, the JSON 404 and the 405s.
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

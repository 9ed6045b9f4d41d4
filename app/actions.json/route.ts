// GET /actions.json (Solana Actions: which site paths have actions)
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "@/lib/api/next-route";

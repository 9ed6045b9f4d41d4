// The exports of every app/api route file: each method answered by the process's one API.
import { NEXT_ROUTE_HANDLERS } from "./default-context";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = NEXT_ROUTE_HANDLERS;

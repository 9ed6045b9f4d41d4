// The exports of app/api's one route file (the catch-all): each method answered by the process's one API.
import { NEXT_ROUTE_HANDLERS } from "./default-context";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = NEXT_ROUTE_HANDLERS;

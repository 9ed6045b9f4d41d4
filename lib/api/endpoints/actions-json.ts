// Route actionsJson bound to the default context, one export per HTTP method, for app route files.
import { bindRoute } from "../default-context";
import { ROUTES } from "../routes";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = bindRoute(ROUTES.actionsJson);

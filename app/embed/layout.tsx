// /embed/… — pages without the site's chrome, for partners' iframes (their frame-ancestors come from
// FRAME_ANCESTORS; see proxy.ts).
import type { ReactNode } from "react";

export default function EmbedLayout({ children }: { children: ReactNode }) {
  return <>{children}</>;
}

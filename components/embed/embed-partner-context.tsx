"use client";
// The embed's partner for the components under it (the deposit form and its write): null on the site
// and in an embed that names none.
import { createContext, useContext, type ReactNode } from "react";

import type { EmbedPartner } from "@/lib/web/embed-partner";

const EmbedPartnerContext = createContext<EmbedPartner | null>(null);

export function EmbedPartnerProvider({
  partner,
  children,
}: {
  partner: EmbedPartner | null;
  children: ReactNode;
}) {
  return <EmbedPartnerContext.Provider value={partner}>{children}</EmbedPartnerContext.Provider>;
}

export function useEmbedPartner(): EmbedPartner | null {
  return useContext(EmbedPartnerContext);
}

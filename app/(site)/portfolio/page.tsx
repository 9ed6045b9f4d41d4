// /portfolio — the connected wallet across every vault.
import type { Metadata } from "next";

import { PortfolioFeature } from "@/components/portfolio/portfolio-feature";

export const metadata: Metadata = { title: "Portfolio" };

export default function PortfolioPage() {
  return <PortfolioFeature />;
}

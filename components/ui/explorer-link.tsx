"use client";
// A signature or an address, linked to the Solana Explorer of the deployment's cluster (the custom-URL
// explorer on the local chain), so what the page shows can be checked against the chain itself.
import type { ReactNode } from "react";

import { useClientConfig } from "@/components/providers/config-context";
import { explorerUrl, type ExplorerTarget } from "@/lib/cluster";

export function ExplorerLink({
  target,
  children,
  className,
  testId,
}: {
  target: ExplorerTarget;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  const config = useClientConfig();
  const label = "signature" in target ? target.signature : target.address;
  return (
    <a
      href={explorerUrl(target, config.cluster, config.rpcUrl)}
      target="_blank"
      rel="noopener noreferrer"
      title={`${label} on the explorer`}
      className={className ?? "underline decoration-dotted underline-offset-2 hover:text-accent-text"}
      data-testid={testId}
    >
      {children}
    </a>
  );
}

"use client";
// The embedded vault page's way out: in a partner's iframe that no wallet reaches, a link to the full app.
import { useEffect, useState } from "react";

import { Alert } from "../ui/primitives";
import { reachableInFrame } from "@/lib/web/wallet-options";
import { useWalletState } from "../wallet/wallet-data-access";

function useInsideFrame(): boolean {
  const [inside, setInside] = useState(false);
  useEffect(() => {
    try {
      setInside(window.self !== window.top);
    } catch {
      // Reading window.top across origins can throw: that is a frame too.
      setInside(true);
    }
  }, []);
  return inside;
}

/**
 * Inside a frame that no wallet reaches (and none connected): the link-out is the way on, and a Connect
 * button there would lead nowhere. An installed extension reaches the frame, and so does the local
 * chain's built-in dev wallet.
 */
export function useNoWalletInFrame(): boolean {
  const wallet = useWalletState();
  const inside = useInsideFrame();
  return (
    inside && wallet.status !== "loading" && !reachableInFrame(wallet.options) && wallet.publicKey === null
  );
}

/** In a partner's iframe without a reachable wallet: open the full app in a new tab instead. */
export function LinkOut({ vaultId }: { vaultId: string }) {
  const noWallet = useNoWalletInFrame();
  const [href, setHref] = useState(`/vault/${vaultId}`);
  useEffect(() => setHref(`${window.location.origin}/vault/${vaultId}`), [vaultId]);
  if (!noWallet) {
    return null;
  }
  return (
    <Alert tone="info" title="No wallet can be reached inside this frame" testId="embed-link-out">
      <a href={href} target="_blank" rel="noopener" className="font-semibold text-accent-text underline">
        Open this vault in a new tab ↗
      </a>{" "}
      to connect your wallet there.
    </Alert>
  );
}

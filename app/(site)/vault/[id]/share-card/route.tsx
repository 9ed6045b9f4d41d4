// GET /vault/{id}/share-card — the image of a shared vault link (Open Graph and Twitter cards): name,
// APY, TVL and fee, drawn on the server by next/og (no network). A vault that cannot be read gets the
// site's plain card. A route of its own rather than the opengraph-image file convention: Next.js makes
// that file's URL absolute against localhost:$PORT (3000) under `next dev` whatever the page's own
// origin, so the page names this one itself (page.tsx), on the origin it was asked for.
import { ImageResponse } from "next/og";

import { readVaultFactsOnServer, readVaultOnServer } from "@/lib/web/server-reads";
import { vaultCard } from "@/lib/web/vault-card";

const SIZE = { width: 1200, height: 630 };

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div style={{ display: "flex", flexDirection: "column", marginRight: 72 }}>
      <div style={{ fontSize: 30, color: "#4b5563", textTransform: "uppercase" }}>{label}</div>
      <div style={{ fontSize: 64, fontWeight: 700, color: "#111827" }}>{value}</div>
    </div>
  );
}

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const [read, facts] = await Promise.all([readVaultOnServer(id), readVaultFactsOnServer(id)]);
  const vault = read.status === "found" ? read.vault : null;
  const card = vault === null ? null : vaultCard(vault, facts);
  return new ImageResponse(
    <div
      style={{
        width: "100%",
        height: "100%",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: 72,
        background: "#f6f7f9",
        fontFamily: "sans-serif",
      }}
    >
      <div style={{ display: "flex", fontSize: 36, fontWeight: 700, color: "#111827" }}>
        Vault<span style={{ color: "#4338ca" }}>gateway</span>
      </div>
      <div style={{ display: "flex", flexDirection: "column" }}>
        <div style={{ fontSize: 80, fontWeight: 700, color: "#111827" }}>{vault?.name ?? "Vault"}</div>
        <div style={{ fontSize: 34, color: "#4b5563", marginTop: 8 }}>
          {vault === null
            ? "Deposit and withdraw"
            : `Deposit ${vault.asset.symbol}, receive ${vault.shares.symbol}`}
        </div>
      </div>
      {card === null ? (
        <div style={{ display: "flex" }} />
      ) : (
        <div style={{ display: "flex" }}>
          <Figure label="APY (7 d)" value={card.apy} />
          <Figure label="TVL" value={card.tvl} />
          <Figure label="Fee" value={card.fee} />
        </div>
      )}
    </div>,
    SIZE,
  );
}

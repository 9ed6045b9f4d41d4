// A shared vault link unfurls: the page names its Open Graph and Twitter card (title, a description
// with the APY, TVL and fee, an absolute image URL), and the image is a PNG drawn by the app.
import { expect, inject, it } from "vitest";

import "./support/environment";

const env = inject("e2e");

function metaContent(html: string, key: string): string | null {
  const pattern = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`);
  return pattern.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? null;
}

it("unfurls a vault link with a card: title, APY, TVL, fee and a PNG image", async () => {
  const page = await fetch(`${env.appUrl}/vault/${env.primeVaultId}`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(metaContent(html, "og:title")).toBe("USDC Prime: deposit USDC");
  expect(metaContent(html, "og:description")).toMatch(
    /^Deposit USDC into USDC Prime and receive vUSDC: (APY not known yet|[\d.]+% APY over 7 days), [\d,.]+ USDC deposited, 0\.10% withdrawal fee/,
  );
  expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
  const image = metaContent(html, "og:image");
  expect(image).toBe(`${env.appUrl}/vault/${env.primeVaultId}/share-card`);
  const png = await fetch(image ?? "");
  expect(png.status).toBe(200);
  expect(png.headers.get("content-type")).toBe("image/png");
  const bytes = new Uint8Array(await png.arrayBuffer());
  expect([...bytes.subarray(1, 4)].map((byte) => String.fromCharCode(byte)).join("")).toBe("PNG");
  // 1200 × 630, from the PNG's header.
  const header = new DataView(bytes.buffer, bytes.byteOffset);
  expect([header.getUint32(16), header.getUint32(20)]).toEqual([1200, 630]);
});

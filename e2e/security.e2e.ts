// The key stays on the server: nothing a browser is sent (the built static files, every page's HTML
// and the scripts it loads) holds an API key, the session secret or the server's private RPC URL; the
// session cookie is httpOnly. Every page carries the CSP, nosniff and a strict referrer policy.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { Keypair } from "@solana/web3.js";
import type { Browser } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { launchChromium, openSession } from "./support/browser";
import "./support/environment";

const env = inject("e2e");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
});

const PAGES = [
  "/",
  `/vault/${env.primeVaultId}`,
  "/portfolio",
  "/activity",
  `/embed/vault/${env.primeVaultId}`,
];

/** Anything that looks like a credential, plus the run's actual secrets. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (const secret of env.secrets) {
    if (text.includes(secret)) {
      found.push(`secret ${secret.slice(0, 24)}…`);
    }
  }
  for (const pattern of [
    /vk_(live|test)_[1-9A-HJ-NP-Za-km-z]{20,}/,
    /postgres(ql)?:\/\/\S+@/,
    /rediss?:\/\/\S+/,
  ]) {
    const match = pattern.exec(text);
    if (match !== null) {
      found.push(`pattern ${match[0].slice(0, 24)}…`);
    }
  }
  return found;
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("nothing secret reaches a browser", () => {
  it("the built client output (.next/static) holds no key, secret or private RPC URL", () => {
    if (process.env.E2E_SERVER === "dev") {
      return;
    }
    const files = filesUnder(join(env.distDir, "static"));
    expect(files.filter((file) => file.endsWith(".js")).length).toBeGreaterThan(0);
    const found = files.flatMap((file) =>
      leaks(readFileSync(file, "utf8")).map((leak) => `${file}: ${leak}`),
    );
    expect(found).toEqual([]);
  });

  it("no page's HTML, nor any script or source map it loads, holds one", async () => {
    const { page, context } = await openSession(browser, { wallet: false });
    const bodies: Promise<{ url: string; text: string }>[] = [];
    page.on("response", (response) => {
      const url = response.url();
      // The vault page's event stream stays open (its body never ends) and carries events, not code.
      const eventStream = (response.headers()["content-type"] ?? "").startsWith("text/event-stream");
      if (url.startsWith(env.appUrl) && !eventStream) {
        bodies.push(
          response.text().then(
            (text) => ({ url, text }),
            () => ({ url, text: "" }),
          ),
        );
      }
    });
    try {
      for (const path of PAGES) {
        await page.goto(`${env.appUrl}${path}`);
        // The pages poll, so the network never idles: give the lazy chunks and first reads time.
        await page.waitForLoadState("load");
        await page.waitForTimeout(1_500);
      }
      const seen = await Promise.all(bodies);
      expect(seen.filter((body) => /\.js(\?|$)/.test(body.url)).length).toBeGreaterThan(PAGES.length);
      const found = seen.flatMap((body) => leaks(body.text).map((leak) => `${body.url}: ${leak}`));
      expect(found).toEqual([]);
      // The session cookie is set but scripts cannot read it.
      expect((await context.cookies(env.appUrl)).some((cookie) => cookie.name === "vg_session")).toBe(true);
      await page.goto(`${env.appUrl}/`);
      await page.waitForLoadState("load");
      expect(await page.evaluate(() => document.cookie)).not.toContain("vg_session");
    } finally {
      await context.close();
    }
  });
});

describe("security headers", () => {
  it("every page has the CSP (nonce, frame-ancestors), nosniff and a strict referrer policy", async () => {
    for (const path of [...PAGES, "/no-such-page"]) {
      const response = await fetch(`${env.appUrl}${path}`);
      await response.text();
      const policy = response.headers.get("content-security-policy") ?? "";
      expect(policy, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(policy, path).toContain(`connect-src 'self' ${env.rpcUrl}`);
      expect(policy, path).toContain(
        path.startsWith("/embed/") ? `frame-ancestors 'self' ${env.partnerUrl}` : "frame-ancestors 'self'",
      );
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), path).toBe("same-origin");
    }
  });

  it("static files and /api answers carry nosniff and the referrer policy too", async () => {
    const health = await fetch(`${env.appUrl}/api/health`);
    await health.text();
    expect(health.headers.get("x-content-type-options")).toBe("nosniff");
    expect(health.headers.get("referrer-policy")).toBe("same-origin");
    const html = await (await fetch(`${env.appUrl}/`)).text();
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${env.appUrl}${script ?? ""}`);
    await asset.text();
    expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("the pages' API calls need the session: the same call without it is refused", async () => {
    const path = `/api/vault/${env.primeVaultId}/withdraw?wallet=${Keypair.generate().publicKey.toBase58()}`;
    const bare = await fetch(`${env.appUrl}${path}`, { headers: { "Sec-Fetch-Site": "same-origin" } });
    expect(bare.status).toBe(401);
    const page = await fetch(`${env.appUrl}/`);
    await page.text();
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^vg_session=v2\./);
    const crossSite = await fetch(`${env.appUrl}${path}`, {
      headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" },
    });
    expect(crossSite.status).toBe(401);
    const sameOrigin = await fetch(`${env.appUrl}${path}`, {
      headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
    });
    expect(sameOrigin.status).toBe(200);
    expect(await sameOrigin.json()).toMatchObject({ success: true, data: { hasPendingWithdrawal: false } });
    // The cookie is bound to the browser it was issued to: replayed by another client, refused.
    const replayed = await fetch(`${env.appUrl}${path}`, {
      headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin", "User-Agent": "curl/8.5.0" },
    });
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ success: false, code: "UNAUTHORIZED" });
  });

  it("the keyless per-IP limit holds when a client names a new X-Forwarded-For on every request", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 25; index += 1) {
      const response = await fetch(`${env.appUrl}/api/circulating-supply`, {
        headers: { "X-Forwarded-For": `203.0.113.${index + 1}` },
      });
      await response.text();
      statuses.push(response.status);
    }
    // 20 per 5 s for the one real client; a few earlier requests this window may have counted too.
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(20);
    expect(statuses.at(-1)).toBe(429);
  });
});

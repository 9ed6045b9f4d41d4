// Partners' developers (issue 29, item 9): the local chain's dev wallet inside the embed; the API
// reference's "Try it out" asks for a key as a partner's request would (no answer through the page's
// session beside a curl that gets 401); live updates for an office behind one address; and og:image
// on the app's own origin under `npm run dev`, whatever its port.
import { createWriteStream } from "node:fs";
import { join } from "node:path";

import { describe, expect, inject, it } from "vitest";

import { ARTIFACTS, browserPerFile, openSession, screenshot, vaultFrame } from "./support/browser";
import "./support/environment";
import { appEnv, freePort, startApp, stop } from "./support/world";

const env = inject("e2e");
const browser = browserPerFile();

describe("partners' developers", () => {
  it("offers the local chain's dev wallet inside a partner's frame, where it connects and deposits", async () => {
    // No extension at all: only the app's own dev wallet.
    const { page, context } = await openSession(browser(), { wallet: false });
    try {
      await page.goto(env.partnerUrl);
      const frame = await vaultFrame(page);
      await frame.getByTestId("vault-name").waitFor({ timeout: 30_000 });
      await frame.getByRole("button", { name: "Connect wallet" }).first().click({ timeout: 30_000 });
      expect(await frame.getByTestId("embed-link-out").count()).toBe(0);
      await frame
        .getByRole("dialog", { name: "Connect a wallet" })
        .getByRole("button", { name: /Dev wallet \(local chain\)/ })
        .click();
      await frame.getByTestId("wallet-address").first().waitFor({ timeout: 15_000 });
      await frame.getByRole("button", { name: "Get test funds" }).click();
      await frame.getByText("Balance: 10,000.00 USDC").waitFor({ timeout: 30_000 });
      await frame.getByLabel("Amount to deposit").fill("5");
      await frame.getByRole("button", { name: "Deposit", exact: true }).click();
      await frame.getByTestId("deposit-status-confirm").click({ timeout: 45_000 });
      await frame.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
      await screenshot(page, "developers-embed-dev-wallet", { fullPage: false });
    } catch (error) {
      await screenshot(page, "failure-developers-embed", { fullPage: false });
      throw error;
    } finally {
      await context.close();
    }
  });

  it("the API reference's Try it out asks for a key: it answers as the curl it prints does", async () => {
    const { page, context } = await openSession(browser(), { wallet: false });
    try {
      // A reader who has the app open holds its page session (an httpOnly cookie on this origin).
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await page.getByTestId("vault-name").waitFor();
      expect((await context.cookies(env.appUrl)).some((cookie) => cookie.name === "vg_session")).toBe(true);

      await page.goto(`${env.appUrl}/api/docs`);
      await page.getByText(/press Authorize and enter your API key/).waitFor();
      const operation = page.locator(".opblock").filter({
        has: page.locator(".opblock-summary-path", { hasText: /^\/api\/vaults$/ }),
      });
      await operation.locator(".opblock-summary").first().click();
      await operation.getByRole("button", { name: "Try it out" }).click();
      const answered = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/vaults");
      await operation.getByRole("button", { name: "Execute" }).click();
      const response = await answered;
      const curl = (await operation.locator(".curl-command").innerText()).replace(/\s+/g, " ");
      await screenshot(page, "developers-docs-try-it-out");
      // The printed curl carries no key, so the request it describes is refused: and so was this one.
      expect(curl).not.toMatch(/Authorization/i);
      expect(response.status()).toBe(401);
      const body = (await response.json()) as { code?: string; error?: string };
      expect(body).toMatchObject({
        code: "UNAUTHORIZED",
        error: "Missing API key: send Authorization: Bearer <API_KEY>",
      });
      const byCurl = await fetch(`${env.appUrl}/api/vaults`, { headers: { Accept: "application/json" } });
      expect(byCurl.status).toBe(401);
    } catch (error) {
      await screenshot(page, "failure-developers-docs");
      throw error;
    } finally {
      await context.close();
    }
  });

  it("gives live updates to every visitor of an office behind one address", async () => {
    // Six people behind one address open the vault page (the issue saw a 5th get none).
    const sessions = await Promise.all(
      Array.from({ length: 6 }, () =>
        openSession(browser(), { wallet: false, viewport: { width: 800, height: 600 } }),
      ),
    );
    try {
      const statuses: number[] = [];
      for (const { page } of sessions) {
        const stream = page.waitForResponse(
          (response) => new URL(response.url()).pathname === "/api/events/stream",
          { timeout: 60_000 },
        );
        await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
        statuses.push((await stream).status());
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    } finally {
      await Promise.all(sessions.map((session) => session.context.close()));
    }
  });

  it("names og:image on the app's own origin under npm run dev, on whatever port it runs", async () => {
    const port = await freePort();
    expect(port).not.toBe(3000);
    const log = createWriteStream(join(ARTIFACTS, "app-dev-og-image.log"));
    const child = await startApp("dev", port, appEnv("dev", env.appValues), log);
    try {
      const origin = `http://localhost:${port}`;
      const html = await (await fetch(`${origin}/vault/${env.primeVaultId}`)).text();
      const image =
        /<meta property="og:image" content="([^"]*)"/.exec(html)?.[1]?.replaceAll("&amp;", "&") ?? "";
      expect(new URL(image).origin).toBe(origin);
      const png = await fetch(image);
      expect(png.status).toBe(200);
      expect(png.headers.get("content-type")).toBe("image/png");
    } finally {
      await stop(child);
      log.end();
    }
  }, 600_000);
});

// The embed inside a partner's iframe on another origin: the partner's theme and accent, no site
// chrome, a wallet and the first-party session working in the frame, and framing refused where
// FRAME_ANCESTORS does not allow it (the world sets it as production does; on the local chain it
// defaults to any site, lib/web-config.test.ts). On the local chain a frame always reaches the dev
// wallet (developers.e2e.ts); the link-out for a frame no wallet reaches is lib/web/wallet-options.test.ts.
import type { Browser } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { confirmInWallet, launchChromium, openSession, screenshot, vaultFrame } from "./support/browser";
import "./support/environment";
import { THEME_BACKGROUNDS, contrast } from "../lib/web/embed-theme";

const env = inject("e2e");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
});

describe("the embed in a partner's iframe", () => {
  it("shows the vault in the partner's theme, and a wallet in the frame can deposit", async () => {
    const { page, context } = await openSession(browser);
    try {
      await page.goto(env.partnerUrl);
      expect(new URL(page.url()).origin).not.toBe(new URL(env.appUrl).origin);
      const frame = await vaultFrame(page);
      await frame.getByTestId("vault-name").waitFor({ timeout: 30_000 });
      expect(await frame.getByTestId("vault-name").innerText()).toBe("USDC Prime");

      const root = frame.getByTestId("embed-root");
      expect(await root.getAttribute("data-theme")).toBe("dark");
      const look = await root.evaluate((element) => {
        const style = getComputedStyle(element);
        return { accent: style.getPropertyValue("--accent").trim(), background: style.backgroundColor };
      });
      expect(look.accent).toBe("#ea580c");
      expect(look.background).toBe("rgb(11, 15, 23)");
      expect(await frame.getByRole("navigation", { name: "Main" }).count()).toBe(0);
      const linkOut = frame.getByRole("link", { name: "Open in app ↗" });
      expect(await linkOut.getAttribute("href")).toBe(`/vault/${env.primeVaultId}`);
      expect(await linkOut.getAttribute("target")).toBe("_blank");

      // The wallet and the app's session cookie work inside the third-party frame.
      await frame.getByRole("button", { name: "Connect wallet" }).first().click();
      await frame
        .getByRole("dialog", { name: "Connect a wallet" })
        .getByRole("button", { name: /E2E Test Wallet/ })
        .click();
      await frame.getByTestId("wallet-address").first().waitFor({ timeout: 15_000 });
      await frame.getByRole("button", { name: "Get test funds" }).click();
      await frame.getByText("Balance: 10,000.00 USDC").waitFor({ timeout: 30_000 });
      await frame.getByLabel("Amount to deposit").fill("5");
      await frame.getByRole("button", { name: "Deposit", exact: true }).click();
      await confirmInWallet(frame, "deposit-status");
      await frame.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
      // The host page heard the frame: its height (the iframe fits its content) and the deposit.
      await page.waitForFunction(() =>
        (window as unknown as { vaultMessages: { type: string }[] }).vaultMessages.some(
          (message) => message.type === "transaction",
        ),
      );
      // Read together, so no resize lands between the messages and the frame's height.
      const { messages, frameHeight } = await page.evaluate(() => ({
        messages: (window as unknown as { vaultMessages: Record<string, unknown>[] }).vaultMessages,
        frameHeight: document.getElementById("vault")?.clientHeight,
      }));
      expect(messages).toContainEqual({
        source: "vault-gateway",
        type: "transaction",
        kind: "deposit",
        vault: env.primeVaultId,
        signature: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/),
      });
      const heights = messages
        .filter((message) => message.type === "resize")
        .map((message) => message.height);
      expect(heights.length).toBeGreaterThan(0);
      expect(frameHeight).toBe(heights.at(-1));
      expect(frameHeight).not.toBe(1200);
      const cookies = await context.cookies(env.appUrl);
      expect(cookies.find((cookie) => cookie.name === "vg_session")).toMatchObject({
        httpOnly: true,
        secure: true,
        sameSite: "None",
      });
      await screenshot(page, "15-embed-partner-dark", { fullPage: false });
    } catch (error) {
      await screenshot(page, "failure-embed");
      throw error;
    } finally {
      await context.close();
    }
  });

  it("is refused by the browser where an explicit FRAME_ANCESTORS does not allow it, and site pages are never framed", async () => {
    const { page, context } = await openSession(browser, { wallet: false });
    try {
      for (const url of [env.strangerUrl, `${env.partnerUrl}/site`]) {
        const blocked = page.waitForEvent("console", {
          predicate: (message) => /frame-ancestors/.test(message.text()),
          timeout: 30_000,
        });
        await page.goto(url);
        await blocked;
        const frame = await vaultFrame(page);
        expect(await frame.getByTestId("vault-name").count()).toBe(0);
      }
    } finally {
      await context.close();
    }
  });
});

describe("the embed's own page", () => {
  it("shows a faint accent's links darkened to 4.5:1, and paints no background when asked", async () => {
    const { page, context } = await openSession(browser, { wallet: false });
    try {
      await page.goto(
        `${env.appUrl}/embed/vault/${env.primeVaultId}?theme=light&accent=%23ffff00&background=transparent`,
      );
      await page.getByTestId("vault-name").waitFor({ timeout: 30_000 });
      const colours = await page.evaluate(() => {
        const probe = document.createElement("a");
        probe.className = "text-accent-text";
        document.getElementById("main")?.append(probe);
        const rgb = getComputedStyle(probe).color;
        return { link: rgb, body: getComputedStyle(document.body).backgroundColor };
      });
      const [r = 0, g = 0, b = 0] = (colours.link.match(/\d+/g) ?? []).map(Number);
      const hex = `#${[r, g, b].map((value) => value.toString(16).padStart(2, "0")).join("")}`;
      for (const background of THEME_BACKGROUNDS.light) {
        expect(contrast(hex, background)).toBeGreaterThanOrEqual(4.5);
      }
      expect(colours.body).toBe("rgba(0, 0, 0, 0)");
    } finally {
      await context.close();
    }
  });

  it("follows theme=light and ignores an accent that is not a colour", async () => {
    const { page, context } = await openSession(browser, { wallet: false });
    try {
      await page.goto(`${env.appUrl}/embed/vault/${env.primeVaultId}?theme=light&accent=red;x:url(y)`);
      const root = page.getByTestId("embed-root");
      await page.getByTestId("vault-name").waitFor({ timeout: 30_000 });
      expect(await root.getAttribute("data-theme")).toBe("light");
      expect(await root.getAttribute("style")).toBeNull();
      await screenshot(page, "17-embed-light");
    } finally {
      await context.close();
    }
  });
});

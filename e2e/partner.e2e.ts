// The embed that names a partner (issue 32 item 5): `?partner=<key id>` of a key made by `npm run keys`
// with a 25 bps partner fee (e2e/support/global-setup.ts). The page shows the fee before the wallet
// opens, and the deposit pays it to the partner's USDC account in the same transaction, as the chain
// shows. A key that is not a partner's is said on the page, and the deposit has no fee.
import { Connection, PublicKey } from "@solana/web3.js";
import type { Browser } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { confirmInWallet, connectWallet, launchChromium, openSession, screenshot } from "./support/browser";
import "./support/environment";

const env = inject("e2e");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
});

async function partnerBalance(): Promise<bigint> {
  const connection = new Connection(env.rpcUrl, "confirmed");
  const { value } = await connection.getTokenAccountBalance(new PublicKey(env.partner.tokenAccount));
  return BigInt(value.amount);
}

describe("the embed with ?partner=", () => {
  it("shows the partner's fee before signing and pays it to the partner in the deposit", async () => {
    const { page, context, problems } = await openSession(browser);
    const short = `${env.partner.wallet.slice(0, 4)}…${env.partner.wallet.slice(-4)}`;
    try {
      await page.goto(`${env.appUrl}/embed/vault/${env.primeVaultId}?partner=${env.partner.keyId}`);
      await page.getByTestId("vault-name").waitFor({ timeout: 30_000 });
      expect(await page.getByTestId("embed-partner-unknown").count()).toBe(0);
      await connectWallet(page);
      await page.getByRole("button", { name: "Get test funds" }).click();
      await page.getByText("Balance: 10,000.00 USDC").waitFor({ timeout: 30_000 });

      await page.getByLabel("Amount to deposit").fill("1000");
      const preview = page.getByTestId("deposit-preview");
      const feeRow = preview.locator("div", { has: page.getByText("Partner fee (0.25%)", { exact: true }) });
      await feeRow.waitFor({ timeout: 30_000 });
      expect(await feeRow.locator("dd").innerText()).toBe("2.50 USDC");
      expect(await page.getByTestId("deposit-partner-fee").innerText()).toBe(
        `Paid to this page's partner, ${short}, in the same transaction; 997.50 USDC is deposited.`,
      );

      const before = await partnerBalance();
      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      // The step before the wallet says the fee again, as checked in the built transaction.
      const review = page.getByTestId("deposit-status-preview");
      await review
        .getByText(`Of that, 2.50 USDC (0.25%) is the partner fee, paid to ${short}`)
        .waitFor({ timeout: 45_000 });
      await confirmInWallet(page, "deposit-status");
      const success = page.getByTestId("deposit-success");
      await success.waitFor({ timeout: 45_000 });
      expect(await success.innerText()).toContain("Deposited 997.50 USDC");
      await page.getByText("Balance: 9,000.00 USDC").waitFor({ timeout: 30_000 });

      expect((await partnerBalance()) - before).toBe(2_500_000n);
      await screenshot(page, "16-embed-partner-fee");
      expect(problems.filter((problem) => problem.startsWith("pageerror"))).toEqual([]);
    } catch (error) {
      await screenshot(page, "failure-embed-partner");
      throw error;
    } finally {
      await context.close();
    }
  });

  it("shows the fee on a phone in a German reader's figures, inside the screen", async () => {
    const { page, context, problems } = await openSession(browser, {
      viewport: { width: 390, height: 844 },
      locale: "de-DE",
      timezoneId: "Europe/Berlin",
    });
    try {
      await page.goto(`${env.appUrl}/embed/vault/${env.primeVaultId}?partner=${env.partner.keyId}`);
      await page.getByTestId("vault-name").waitFor({ timeout: 30_000 });
      await connectWallet(page);
      await page.getByRole("button", { name: "Get test funds" }).click();
      await page.getByText("Balance: 10.000,00 USDC").waitFor({ timeout: 30_000 });

      // Typed as a German keyboard writes a thousand: 1.000 is 1,000 USDC, not 1.
      await page.getByLabel("Amount to deposit").fill("1.000");
      const preview = page.getByTestId("deposit-preview");
      const feeRow = preview.locator("div", { has: page.getByText(/^Partner fee \(0,25\s%\)$/) });
      await feeRow.waitFor({ timeout: 30_000 });
      expect(await feeRow.locator("dd").innerText()).toBe("2,50 USDC");
      const words = page.getByTestId("deposit-partner-fee");
      expect(await words.innerText()).toMatch(/; 997,50 USDC is deposited\.$/);

      // Nothing of it runs off a 390-pixel screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      for (const shown of [feeRow, words]) {
        const box = await shown.boundingBox();
        expect(box === null ? null : box.x >= 0 && box.x + box.width <= 390).toBe(true);
      }

      // The step before the wallet says it again in the same figures.
      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      await page
        .getByTestId("deposit-status-preview")
        .getByText(/Of that, 2,50 USDC \(0,25\s%\) is the partner fee/)
        .waitFor({ timeout: 45_000 });
      await screenshot(page, "16b-embed-partner-fee-phone-de");
      expect(problems.filter((problem) => /pageerror|hydrat/i.test(problem))).toEqual([]);
    } catch (error) {
      await screenshot(page, "failure-embed-partner-phone-de");
      throw error;
    } finally {
      await context.close();
    }
  });

  it("says a key that is not a partner's, and previews a deposit with no partner fee", async () => {
    const { page, context } = await openSession(browser);
    try {
      await page.goto(`${env.appUrl}/embed/vault/${env.primeVaultId}?partner=key_NotAKeyHere1`);
      await page.getByTestId("vault-name").waitFor({ timeout: 30_000 });
      expect(await page.getByTestId("embed-partner-unknown").innerText()).toContain("key_NotAKeyHere1");
      await connectWallet(page);
      await page.getByRole("button", { name: "Get test funds" }).click();
      await page.getByText("Balance: 10,000.00 USDC").waitFor({ timeout: 30_000 });
      await page.getByLabel("Amount to deposit").fill("1000");
      const preview = page.getByTestId("deposit-preview");
      await preview.getByText("You receive about").waitFor({ timeout: 30_000 });
      expect(await preview.getByText(/Partner fee/).count()).toBe(0);
      expect(await page.getByTestId("deposit-partner-fee").count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

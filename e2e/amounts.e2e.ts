// Amounts as people type them, in the browser's own locale: a decimal comma is a decimal mark, never a
// thousands separator (`1,5` once previewed 15 vUSDC and `1000,5` was read as 10005), and what the
// preview promised is what is deposited.
import type { Page } from "playwright";
import { describe, expect, inject, it } from "vitest";

import {
  confirmInWallet,
  connectWallet,
  browserPerFile,
  openSession,
  screenshot,
  textOf,
} from "./support/browser";
import { USDC, fundFromFaucet } from "./support/chain";
import "./support/environment";

const env = inject("e2e");
const browser = browserPerFile();

/** Text written as `locale` writes numbers (en-US's "2,000.00" is de-DE's "2.000,00"). */
function written(text: string, locale: string): string {
  return locale === "de-DE" ? text.replace(/[.,]/g, (mark) => (mark === "." ? "," : ".")) : text;
}

/** The shares the deposit preview promises, as a number of whole vUSDC (display text, for bounds only). */
async function previewedShares(page: Page, locale: string): Promise<number> {
  const preview = await textOf(page, "deposit-preview");
  const match = /You receive about ([\d,.]+) vUSDC/.exec(preview);
  expect(match, preview).not.toBeNull();
  return Number(written(match?.[1] ?? "", locale).replaceAll(",", ""));
}

describe.each(["de-DE", "en-US"])("a browser in %s", (locale) => {
  it("reads 1,5 as one and a half, previews it so and deposits exactly 1.50 USDC", async () => {
    const session = await openSession(browser(), { locale });
    const { page } = session;
    try {
      await fundFromFaucet(env.faucetUrl, env.rpcUrl, session.wallet?.address ?? "", 2_000n * USDC);
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await connectWallet(page);
      // Written as the reader's locale reads it: 2.000,00 in de-DE (issue 29: never 2,000.00 there).
      await page.getByText(`Balance: ${written("2,000.00", locale)} USDC`).waitFor({ timeout: 30_000 });
      const field = page.getByLabel("Amount to deposit");

      // The share price is near 1: 1.5 USDC buys about 1.5 vUSDC, never 15.
      await field.fill("1000,5");
      const thousand = await previewedShares(page, locale);
      expect(thousand).toBeGreaterThan(900);
      expect(thousand).toBeLessThan(1_100);
      await field.fill("1,5");
      const shares = await previewedShares(page, locale);
      expect(shares).toBeGreaterThan(1.3);
      expect(shares).toBeLessThan(1.7);
      await screenshot(page, `amounts-${locale}-preview`);

      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      // The confirm step: the checked transaction's simulated balance changes, before the wallet is asked.
      const confirm = page.getByTestId("deposit-status-confirm");
      await confirm.waitFor({ timeout: 45_000 });
      const changes = await textOf(page, "deposit-status-preview");
      const mark = locale === "de-DE" ? "," : "\\.";
      expect(changes).toMatch(new RegExp(`You pay 1${mark}50* USDC`));
      expect(changes).toMatch(new RegExp(`You receive 1${mark}\\d+ vUSDC`));
      expect(changes).toMatch(new RegExp(`Network fee and account rent: 0${mark}\\d+ SOL`));
      expect(session.wallet?.signatures).toBe(0);
      await screenshot(page, `amounts-${locale}-confirm`);
      await confirmInWallet(page, "deposit-status");
      await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
      expect(session.wallet?.signatures).toBe(1);
      // Shares at one precision, six decimals: 1.499999 is never shown as 1.49.
      expect(await textOf(page, "deposit-success")).toMatch(
        new RegExp(`Deposited 1${mark}50 USDC and received 1${mark}\\d{6} vUSDC`),
      );
      await page.getByText(`Balance: ${written("1,998.50", locale)} USDC`).waitFor({ timeout: 15_000 });
    } catch (error) {
      await screenshot(page, `failure-amounts-${locale}`);
      throw error;
    } finally {
      await session.context.close();
    }
  });
});

it("refuses an amount whose thousands are not in groups of three, with the reason", async () => {
  const session = await openSession(browser(), { locale: "en-US" });
  const { page } = session;
  try {
    await fundFromFaucet(env.faucetUrl, env.rpcUrl, session.wallet?.address ?? "", 10n * USDC);
    await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
    await connectWallet(page);
    await page.getByLabel("Amount to deposit").fill("1 5");
    await page.getByText("Separate thousands only in groups of three").waitFor();
    expect(await page.getByTestId("deposit-preview").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Deposit", exact: true }).isDisabled()).toBe(true);
  } finally {
    await session.context.close();
  }
});

// The smaller list of issue 29: the directory's fee column and a said-why unknown APY; a phone's bar
// that shows the open form and steps aside for it; "Share as a blink" that moves nothing; keyboard
// focus kept after connecting, test funds and a deposit; one outcome at a time, on its own tab; the
// caps caption; an unknown vault named with its network; the request's review saying its receipt's
// rent comes back; `estimatedUsdcAmount` documented as the vault's asset.
import { Keypair } from "@solana/web3.js";
import type { Page } from "playwright";
import { describe, expect, inject, it } from "vitest";

import {
  browserPerFile,
  claimOrSeeDelivered,
  connectWallet,
  openSession,
  screenshot,
  textOf,
} from "./support/browser";
import { USDC, fundFromFaucet, nextNavStrike } from "./support/chain";
import "./support/environment";

const env = inject("e2e");
const browser = browserPerFile();

/**
 * Whether keyboard focus is, or comes to rest, somewhere a keyboard user can go on from (not <body>).
 * Waited for as a state: a busy machine renders later, so only focus that never arrives fails.
 */
async function focusKept(page: Page): Promise<boolean> {
  try {
    await page.waitForFunction(
      () => document.activeElement !== null && document.activeElement !== document.body,
      undefined,
      { timeout: 30_000 },
    );
    return true;
  } catch {
    return false;
  }
}

/** How many visible buttons read exactly `name`. */
async function visibleButtons(page: Page, name: string): Promise<number> {
  const buttons = page.getByRole("button", { name, exact: true });
  let visible = 0;
  for (let index = 0; index < (await buttons.count()); index += 1) {
    if (await buttons.nth(index).isVisible()) {
      visible += 1;
    }
  }
  return visible;
}

describe("the smaller list", () => {
  it("the directory shows each vault's fee, and says why an APY is not known yet", async () => {
    const { page, context } = await openSession(browser(), { wallet: false });
    try {
      await page.goto(`${env.appUrl}/`);
      const list = page.getByTestId("vault-list");
      await list.waitFor({ timeout: 30_000 });
      const prime = list.getByRole("listitem").filter({ hasText: "USDC Prime" });
      expect(await prime.getByTestId("vault-fee").innerText()).toBe("0.10%");
      // The local chain's vaults are minutes old: no APY, and the row says why instead of a bare "—".
      expect(await prime.getByText("—", { exact: true }).count()).toBe(0);
      expect(await prime.getByTestId("apy-unknown").innerText()).toBe(
        "Not known yet: too little NAV history",
      );
      await screenshot(page, "smaller-directory");
    } finally {
      await context.close();
    }
  });

  it("an unknown vault is named, with the network it was looked for on", async () => {
    const { page, context } = await openSession(browser(), { wallet: false });
    try {
      const nobody = Keypair.generate().publicKey.toBase58();
      const response = await page.goto(`${env.appUrl}/vault/${nobody}`);
      expect(response?.status()).toBe(404);
      await page.getByRole("heading", { name: "No vault at this address" }).waitFor();
      expect(await page.getByText(nobody).count()).toBe(1);
      expect(await textOf(page, "vault-not-found-network")).toBe("localnet, the local test chain");
      expect(await page.getByText("Page not found").count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("documents estimatedUsdcAmount as the vault's asset, whatever its symbol, under the spec's name", async () => {
    const document = (await (await fetch(`${env.appUrl}/api/openapi.json`)).json()) as {
      components: { schemas: Record<string, { properties?: Record<string, { description?: string }> }> };
    };
    const field = document.components.schemas.WithdrawalStatus?.properties?.estimatedUsdcAmount;
    expect(field?.description).toMatch(/in the vault's asset whatever its symbol/);
  });

  it("on a phone the bar shows the open form and steps aside for the forms: one Deposit button at a time", async () => {
    const session = await openSession(browser(), { viewport: { width: 390, height: 844 } });
    const { page } = session;
    try {
      await fundFromFaucet(env.faucetUrl, env.rpcUrl, session.wallet?.address ?? "", 100n * USDC);
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await connectWallet(page);
      await page.getByText("Balance: 100.00 USDC").waitFor({ timeout: 30_000 });
      // The forms on screen: their own Deposit button alone.
      expect(await visibleButtons(page, "Deposit")).toBe(1);
      await page.getByRole("tab", { name: "withdraw" }).click();
      await page.mouse.wheel(0, 2_000);
      const bar = page.getByTestId("mobile-action-bar");
      await bar.waitFor();
      // Scrolled away from the Withdraw tab: the bar says Withdraw is the open one.
      expect(await bar.getByRole("button", { name: "Withdraw" }).getAttribute("aria-pressed")).toBe("true");
      expect(await bar.getByRole("button", { name: "Deposit" }).getAttribute("aria-pressed")).toBe("false");
      expect(await visibleButtons(page, "Deposit")).toBe(1);
      await screenshot(page, "smaller-phone-bar", { fullPage: false });
    } catch (error) {
      await screenshot(page, "failure-smaller-phone", { fullPage: false });
      throw error;
    } finally {
      await session.context.close();
    }
  });

  it("keeps keyboard focus after connecting, test funds and a deposit; Share as a blink moves nothing", async () => {
    const session = await openSession(browser());
    const { page } = session;
    try {
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await page.getByTestId("vault-name").waitFor();
      const title = await page.getByTestId("vault-name").boundingBox();
      await page.getByTestId("share-blink").click();
      await page.getByTestId("blink-url").waitFor();
      expect.soft((await page.getByTestId("vault-name").boundingBox())?.y).toBe(title?.y);

      // The card's Connect button, pressed from the keyboard.
      const connect = page.getByRole("button", { name: "Connect wallet" }).last();
      await connect.focus();
      await page.keyboard.press("Enter");
      await page
        .getByRole("dialog", { name: "Connect a wallet" })
        .getByRole("button", { name: /E2E Test Wallet/ })
        .press("Enter");
      await page.getByTestId("wallet-address").first().waitFor({ timeout: 15_000 });
      expect.soft(await focusKept(page)).toBe(true);

      await page.getByRole("button", { name: "Get test funds" }).press("Enter");
      await page.getByText("Test USDC and SOL arrived in your wallet.").waitFor({ timeout: 30_000 });
      expect.soft(await focusKept(page)).toBe(true);

      await page.getByLabel("Amount to deposit").fill("5");
      await page.getByLabel("Amount to deposit").press("Enter");
      await page.getByTestId("deposit-status-confirm").waitFor({ timeout: 45_000 });
      await page.keyboard.press("Enter");
      await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
      expect.soft(await focusKept(page)).toBe(true);
      await screenshot(page, "smaller-focus");
    } catch (error) {
      await screenshot(page, "failure-smaller-focus");
      throw error;
    } finally {
      await session.context.close();
    }
  }, 150_000);

  it("one outcome at a time, on its own tab; the caps caption; the request's review says the receipt's rent comes back", async () => {
    const session = await openSession(browser());
    const { page } = session;
    const outcomes = async () =>
      (
        await Promise.all(
          ["deposit-success", "withdraw-success", "cancel-success", "claim-success"].map(
            async (id) => (await page.getByTestId(id).count()) > 0,
          ),
        )
      ).filter(Boolean).length;
    try {
      await fundFromFaucet(env.faucetUrl, env.rpcUrl, session.wallet?.address ?? "", 100n * USDC);
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await connectWallet(page);
      await page.getByText("Balance: 100.00 USDC").waitFor({ timeout: 30_000 });
      expect(await page.getByText(/requests minus deposits/).count()).toBe(0);
      await page
        .getByText(/a deposit gives back capacity its window has used, never more than that/)
        .waitFor();

      await page.getByLabel("Amount to deposit").fill("20");
      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      await page.getByTestId("deposit-status-confirm").click({ timeout: 45_000 });
      await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });

      await page.getByRole("tab", { name: "withdraw" }).click();
      const request = async () => {
        await page.getByLabel("Shares to withdraw").fill("2");
        await page.getByRole("button", { name: "Request withdrawal" }).click();
        const review = page.getByTestId("withdraw-status-preview");
        await review.waitFor({ timeout: 45_000 });
        const words = (await review.innerText()).replace(/\s+/g, " ");
        await page.getByTestId("withdraw-status-confirm").click();
        await page.getByTestId("pending-withdrawal").waitFor({ timeout: 45_000 });
        return words;
      };
      // Right after a NAV strike: the request is cancelled before the next one, which would make it
      // claimable and have the local keeper deliver it.
      await nextNavStrike(env.rpcUrl, env.primeVaultId, (env.navIntervalSeconds * 2 + 30) * 1000);
      expect(await request()).toMatch(
        /Of that, [\d.]+ SOL is your withdrawal receipt's rent: it comes back to this wallet when you claim or cancel\./,
      );
      await page.getByTestId("withdraw-success").waitFor();
      // The request's outcome stays on its tab.
      await page.getByRole("tab", { name: "deposit" }).click();
      // Waited for (the tab's switch renders after the click), not counted at once.
      await page.getByTestId("withdraw-success").waitFor({ state: "detached", timeout: 15_000 });
      await page.getByRole("tab", { name: "withdraw" }).click();

      await page.getByTestId("cancel-button").click();
      await page.getByTestId("cancel-confirm-button").click();
      await page.getByTestId("cancel-status-confirm").click({ timeout: 45_000 });
      await page.getByTestId("cancel-success").waitFor({ timeout: 45_000 });
      await request();
      // The owner's claim, or the keeper's delivery when it lands first.
      const ended = await claimOrSeeDelivered(page, (env.navIntervalSeconds * 3 + 30) * 1000);
      // The claim's outcome alone (or the delivery, which is no outcome of this tab's): the earlier
      // cancel's is not piled under it.
      expect.soft(await outcomes()).toBe(ended === "claimed" ? 1 : 0);
      expect(await page.getByTestId("cancel-success").count()).toBe(0);
      await screenshot(page, "smaller-outcomes");
    } catch (error) {
      await screenshot(page, "failure-smaller-outcomes");
      throw error;
    } finally {
      await session.context.close();
    }
  }, 240_000);
});

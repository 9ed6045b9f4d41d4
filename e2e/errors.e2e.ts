// What goes wrong, shown in words (the withdrawal cap, refused before sending with what fits, is
// offers.e2e.ts's): a refusal in the wallet, no SOL for fees (before signing), an expired blockhash (rebuilt and asked
// again), and an unreachable chain. Nothing reads as done.
import type { Browser, Page } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import {
  confirmInWallet,
  connectWallet,
  launchChromium,
  openSession,
  screenshot,
  type WalletSession,
} from "./support/browser";
import { USDC, drainSol, fundFromFaucet } from "./support/chain";
import "./support/environment";

const env = inject("e2e");
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
});

async function textOf(page: Page, testId: string): Promise<string> {
  return (await page.getByTestId(testId).first().innerText()).replace(/\s+/g, " ");
}

/** A session whose wallet holds `usdc`, on the Prime vault's page, connected. */
async function fundedSession(usdc: bigint): Promise<WalletSession & { address: string }> {
  const session = await openSession(browser);
  const address = session.wallet?.address ?? "";
  await fundFromFaucet(env.faucetUrl, env.rpcUrl, address, usdc);
  await session.page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
  await connectWallet(session.page);
  return { ...session, address };
}

async function deposit(page: Page, amount: string): Promise<void> {
  await page.getByRole("tab", { name: "deposit" }).click();
  await page.getByLabel("Amount to deposit").fill(amount);
  await page.getByRole("button", { name: "Deposit", exact: true }).click();
  await confirmInWallet(page, "deposit-status");
}

async function withScreenshotOnFailure(session: WalletSession, name: string, body: () => Promise<void>) {
  try {
    await body();
  } catch (error) {
    await screenshot(session.page, `failure-${name}`);
    throw error;
  } finally {
    await session.context.close();
  }
}

describe("errors in words", () => {
  it("a refusal in the wallet: nothing is sent, and the next try works", async () => {
    const session = await fundedSession(100n * USDC);
    const { page, wallet } = session;
    await withScreenshotOnFailure(session, "rejection", async () => {
      await page.getByText("Balance: 100.00 USDC").waitFor({ timeout: 15_000 });
      if (wallet === null) {
        throw new Error("no wallet");
      }
      wallet.mode = "reject";
      await deposit(page, "10");
      // The person's own choice, said as a neutral notice, not an error.
      const cancelled = page.getByTestId("deposit-status-cancelled");
      await cancelled.waitFor({ timeout: 20_000 });
      expect((await cancelled.innerText()).replace(/\s+/g, " ")).toBe(
        "Cancelled — nothing was signed You cancelled in your wallet, so nothing was sent. Try again when you're ready.",
      );
      expect(await cancelled.getAttribute("role")).toBe("status");
      expect(await page.getByTestId("deposit-status-error").count()).toBe(0);
      expect(wallet.rejections).toBe(1);
      expect(await page.getByTestId("deposit-success").count()).toBe(0);
      await screenshot(page, "11-error-wallet-rejected");

      wallet.mode = "approve";
      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      await confirmInWallet(page, "deposit-status");
      await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
      expect(await page.getByTestId("deposit-status-cancelled").count()).toBe(0);
    });
  });

  it("not enough SOL for fees", async () => {
    const session = await openSession(browser);
    const { page, wallet } = session;
    await withScreenshotOnFailure(session, "sol", async () => {
      if (wallet === null) {
        throw new Error("no wallet");
      }
      await fundFromFaucet(env.faucetUrl, env.rpcUrl, wallet.address, 50n * USDC);
      await drainSol(env.rpcUrl, wallet.keypair);
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await connectWallet(page);
      await page.getByText("Balance: 50.00 USDC").waitFor({ timeout: 15_000 });
      await page.getByRole("tab", { name: "deposit" }).click();
      await page.getByLabel("Amount to deposit").fill("10");
      // Said before anything is signed: the page knows the wallet's SOL.
      const words = await textOf(page, "deposit-fee-sol");
      expect(words).toContain("This wallet holds no SOL to pay the network fee.");
      expect(await page.getByRole("button", { name: "Deposit", exact: true }).isDisabled()).toBe(true);
      expect(wallet.signatures).toBe(0);
      await screenshot(page, "12-error-no-sol");
    });
  });

  it("an expired blockhash: rebuilt, signed again, then confirmed", async () => {
    const session = await fundedSession(100n * USDC);
    const { page, wallet } = session;
    await withScreenshotOnFailure(session, "blockhash", async () => {
      if (wallet === null) {
        throw new Error("no wallet");
      }
      await page.getByText("Balance: 100.00 USDC").waitFor({ timeout: 15_000 });
      // Past the blockhash's 150 slots before the wallet answers.
      wallet.delayNextMs = 150 * env.slotMs + 2_000;
      await deposit(page, "5");
      await page.getByText("Blockhash expired — rebuilt").waitFor({ timeout: 60_000 });
      // The rebuilt transaction is another one: its changes are shown and confirmed again.
      await confirmInWallet(page, "deposit-status");
      await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
      expect(wallet.signatures).toBe(2);
      await screenshot(page, "13-blockhash-rebuilt");
    });
  }, 150_000);

  it("a chain that takes requests and never answers: the page says so, keeps the last figures, and a send can be stopped", async () => {
    const session = await fundedSession(100n * USDC);
    const { page, context, wallet } = session;
    await withScreenshotOnFailure(session, "silent-chain", async () => {
      await page.getByText("Balance: 100.00 USDC").waitFor({ timeout: 15_000 });
      const rpcOrigin = new URL(env.rpcUrl).origin;
      // Every RPC request from now on is taken and never answered (a paused node).
      await context.route(
        (url) => url.origin === rpcOrigin,
        () => undefined,
      );
      const stale = page.getByTestId("chain-stall");
      await stale.waitFor({ timeout: 30_000 });
      const staleText = (await stale.innerText()).replace(/\s+/g, " ");
      expect(staleText).toContain("The chain is unreachable");
      expect(staleText).toMatch(/the figures shown are as of \d{1,2}:\d\d( [AP]M)?, when it last answered/);
      await stale.getByRole("button", { name: "Try again now" }).waitFor();
      // The vault's figures are still on the page.
      await page.getByTestId("vault-name").waitFor();
      expect(await page.getByTestId("share-price").count()).toBe(1);

      // A deposit signed while the node is silent: "still trying" after a while, and Cancel stops waiting.
      await page.getByRole("tab", { name: "deposit" }).click();
      await page.getByLabel("Amount to deposit").fill("10");
      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      const slow = page.getByTestId("deposit-status-slow");
      await slow.waitFor({ timeout: 45_000 });
      expect(await slow.innerText()).toMatch(/The network isn't answering; still trying/);
      await slow.getByRole("button", { name: "Cancel: stop waiting" }).click();
      const error = page.getByTestId("deposit-status-error");
      await error.waitFor();
      const words = (await error.innerText()).replace(/\s+/g, " ");
      expect(words).toContain("Stopped waiting");
      expect(words).toContain(
        wallet !== null && wallet.signatures > 0 ? "may still be confirmed" : "nothing was sent",
      );
      expect(await page.getByTestId("deposit-success").count()).toBe(0);
      await screenshot(page, "15-error-chain-silent");
      await context.unrouteAll({ behavior: "ignoreErrors" });
    });
  }, 150_000);

  it("the chain unreachable", async () => {
    const session = await openSession(browser, { wallet: false });
    const { page, context } = session;
    await withScreenshotOnFailure(session, "chain", async () => {
      const rpcOrigin = new URL(env.rpcUrl).origin;
      await context.route(
        (url) => url.origin === rpcOrigin,
        (route) => route.abort("connectionrefused"),
      );
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      const alert = page.getByRole("alert").filter({ hasText: "The chain is unreachable" });
      await alert.waitFor({ timeout: 30_000 });
      expect((await alert.innerText()).replace(/\s+/g, " ")).toContain(
        "The Solana network can't be reached right now",
      );
      await screenshot(page, "14-error-chain-unreachable");
    });
  });
});

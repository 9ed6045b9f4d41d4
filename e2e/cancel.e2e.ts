// Cancelling a pending withdrawal in a real browser: a fresh wallet deposits and requests, the pending
// panel's "Cancel request" asks for a confirmation that says what happens, the wallet signs the checked
// cancel, and the shares are back (less the exit fee, burned): the panel goes, the page says so, the activity lists the cancel.
// The request is made right after a NAV strike: the local keeper delivers a withdrawal in the pass that
// makes it claimable, which is the next strike's, a whole NAV interval later.
import type { Page } from "playwright";
import { describe, expect, inject, it } from "vitest";

import { nextNavStrike } from "./support/chain";
import {
  browserPerFile,
  confirmInWallet,
  connectWallet,
  openSession,
  screenshot,
  textOf,
} from "./support/browser";
import "./support/environment";

const env = inject("e2e");
const browser = browserPerFile();

describe("a pending withdrawal cancelled from the vault page", () => {
  it("confirms first, then returns the shares and closes the request", async () => {
    const { page, problems } = await openSession(browser());
    try {
      await cancelJourney(page);
    } catch (error) {
      await screenshot(page, "failure-cancel");
      throw error;
    }
    expect(problems.filter((problem) => problem.startsWith("pageerror"))).toEqual([]);
  });
});

async function cancelJourney(page: Page): Promise<void> {
  await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
  await page.getByTestId("vault-name").waitFor();
  await connectWallet(page);
  await page.getByRole("button", { name: "Get test funds" }).click();
  await page.getByText("Test USDC and SOL arrived in your wallet.").waitFor({ timeout: 30_000 });

  await page.getByLabel("Amount to deposit").fill("100");
  await page.getByRole("button", { name: "Deposit", exact: true }).click();
  await confirmInWallet(page, "deposit-status");
  await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });

  await page.getByRole("tab", { name: "withdraw" }).click();
  await page.getByLabel("Shares to withdraw").fill("40");
  await nextNavStrike(env.rpcUrl, env.primeVaultId, (env.navIntervalSeconds * 2 + 30) * 1000);
  await page.getByRole("button", { name: "Request withdrawal" }).click();
  await confirmInWallet(page, "withdraw-status");
  await page.getByTestId("pending-withdrawal").waitFor({ timeout: 45_000 });

  // Nothing is signed before the confirmation, and keeping the request leaves it as it was.
  await page.getByTestId("cancel-button").click();
  // The prime vault's 10 bps exit fee on 40 vUSDC: 0.04 vUSDC burned, 39.96 back.
  expect(await textOf(page, "cancel-confirm")).toContain(
    "39.960000 vUSDC of your 40.000000 vUSDC come back; the exit fee of 0.040000 vUSDC (0.10%) is burned",
  );
  await page.getByTestId("cancel-keep-button").click();
  await page.getByTestId("cancel-confirm").waitFor({ state: "detached" });
  await page.getByTestId("cancel-button").click();
  await screenshot(page, "cancel-01-confirm");
  await page.getByTestId("cancel-confirm-button").click();
  // The checked, simulated cancel is shown before the wallet is asked.
  await confirmInWallet(page, "cancel-status");

  await page.getByTestId("cancel-success").waitFor({ timeout: 45_000 });
  expect(await textOf(page, "cancel-success")).toMatch(
    /^Withdrawal request cancelled ?39\.960000 vUSDC came back to your wallet; the request left the queue\./,
  );
  await page.getByTestId("pending-withdrawal").waitFor({ state: "detached", timeout: 15_000 });
  // The withdraw form is offered again: nothing is pending.
  await page.getByLabel("Shares to withdraw").waitFor({ timeout: 15_000 });
  await screenshot(page, "cancel-02-shares-back");

  await page.getByRole("link", { name: "Activity" }).click();
  await page.waitForURL(/\/activity$/, { timeout: 20_000 });
  await page.getByTestId("activity-list").waitFor({ timeout: 20_000 });
  await page.getByText("Withdrawal cancelled").waitFor({ timeout: 20_000 });
  expect(await page.getByTestId("request-state").count()).toBe(0);
}

// Trying the dapp without a browser extension: on the local chain the wallet dialog offers this
// browser's own dev wallet, which connects, gets test funds, deposits, and is the same after a reload.
import { expect, inject, it } from "vitest";

import { browserPerFile, confirmInWallet, openSession, screenshot, textOf } from "./support/browser";
import "./support/environment";

const env = inject("e2e");
const browser = browserPerFile();

it("connects the dev wallet without an extension, deposits, and keeps it across a reload", async () => {
  const session = await openSession(browser(), { wallet: false });
  const { page, problems } = session;
  try {
    await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
    await page.getByRole("button", { name: "Connect wallet" }).first().click();
    await page
      .getByRole("dialog", { name: "Connect a wallet" })
      .getByRole("button", { name: /Dev wallet \(local chain\)/ })
      .click();
    await page.getByTestId("wallet-address").first().waitFor({ timeout: 15_000 });
    const address = await page.getByTestId("wallet-address").first().getAttribute("title");
    expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

    await page.getByRole("button", { name: "Get test funds" }).click();
    await page.getByText("Balance: 10,000.00 USDC").waitFor({ timeout: 30_000 });
    await page.getByLabel("Amount to deposit").fill("5");
    await page.getByRole("button", { name: "Deposit", exact: true }).click();
    await confirmInWallet(page, "deposit-status");
    await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
    expect(await textOf(page, "deposit-success")).toMatch(/Deposited 5\.00 USDC/);

    await page.reload();
    await page.getByTestId("wallet-address").first().waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("wallet-address").first().getAttribute("title")).toBe(address);
    await page.getByText("Balance: 9,995.00 USDC").waitFor({ timeout: 30_000 });
    await screenshot(page, "dev-wallet");
    expect(problems.filter((problem) => problem.startsWith("pageerror"))).toEqual([]);
  } catch (error) {
    await screenshot(page, "failure-dev-wallet");
    throw error;
  } finally {
    await session.context.close();
  }
});

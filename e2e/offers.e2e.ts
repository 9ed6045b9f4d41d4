// Offers and previews (issue 29, item 8): what the page offers pays what it says (the cap's offer names
// the request's net, and promises no second request while one is open); a preview never shows more
// than the wallet holds; the blink offers no amount its own POST refuses; one step before the wallet,
// "Continue to wallet", whose Cancel is the person's choice in neutral words.
import type { Page } from "playwright";
import { describe, expect, inject, it } from "vitest";

import { browserPerFile, connectWallet, openSession, screenshot, textOf } from "./support/browser";
import { USDC, fundFromFaucet } from "./support/chain";
import "./support/environment";

const env = inject("e2e");
const browser = browserPerFile();

/** "24,975.00 USDC" → 24975 */
function figure(text: string): number {
  return Number(/([\d,]+\.\d+)/.exec(text)?.[1]?.replace(/,/g, "") ?? "NaN");
}

async function deposit(page: Page, amount: string): Promise<void> {
  await page.getByLabel("Amount to deposit").fill(amount);
  await page.getByRole("button", { name: "Deposit", exact: true }).click();
  // One step before the wallet, named for what it does; no second "confirm" before the wallet's own.
  const step = page.getByTestId("deposit-status-confirm");
  await step.waitFor({ timeout: 45_000 });
  expect.soft(await step.innerText()).toBe("Continue to wallet");
  expect.soft(await page.getByRole("button", { name: /confirm in wallet/i }).count()).toBe(0);
  await step.click();
  await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
}

describe("offers and previews", () => {
  it("previews no more than the wallet holds, and a cancel before the wallet is neutral", async () => {
    const session = await openSession(browser());
    const { page, wallet } = session;
    try {
      await fundFromFaucet(env.faucetUrl, env.rpcUrl, wallet?.address ?? "", 100n * USDC);
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await connectWallet(page);
      await page.getByText("Balance: 100.00 USDC").waitFor({ timeout: 30_000 });
      await deposit(page, "50");

      // 999,999 vUSDC typed with about 50 held: no "You receive about 999,999…", the refusal offers all.
      await page.getByRole("tab", { name: "withdraw" }).click();
      await page.getByLabel("Shares to withdraw").fill("999999");
      const refusal = page.getByTestId("withdraw-refusal");
      await refusal.waitFor();
      expect(await textOf(page, "withdraw-refusal")).toMatch(
        /^That is more than the [\d.]+ vUSDC this wallet holds\./,
      );
      const previewed = await page.getByTestId("withdraw-preview").count();
      const previewText = previewed === 0 ? "" : await textOf(page, "withdraw-preview");
      expect.soft(previewText).not.toMatch(/999,99\d/);
      expect.soft(previewed).toBe(0);
      const offer = refusal.getByRole("button", {
        name: /^Request all [\d.]+ vUSDC: you receive about [\d.]+ USDC$/,
      });
      const offered = figure((await offer.innerText()).split("about")[1] ?? "");
      await offer.click();
      await page.getByTestId("withdraw-preview").waitFor();
      expect(figure((await textOf(page, "withdraw-preview")).split("You receive about")[1] ?? "")).toBe(
        offered,
      );
      await screenshot(page, "offers-balance");

      // Cancel at the step before the wallet: nothing signed, said as the person's choice, not a failure.
      const signatures = wallet?.signatures ?? 0;
      await page.getByRole("button", { name: "Request withdrawal" }).click();
      const review = page.getByTestId("withdraw-status-preview");
      await review.waitFor({ timeout: 45_000 });
      await review.getByRole("button", { name: "Cancel" }).click();
      const cancelled = page.getByTestId("withdraw-status-cancelled");
      await cancelled.waitFor({ timeout: 10_000 });
      expect(await textOf(page, "withdraw-status-cancelled")).toBe(
        "Cancelled — nothing was signed You cancelled before your wallet was asked, so nothing was sent.",
      );
      expect(await cancelled.getAttribute("role")).toBe("status");
      expect(await page.getByTestId("withdraw-status-error").count()).toBe(0);
      expect(wallet?.signatures ?? 0).toBe(signatures);
      await screenshot(page, "offers-cancelled");
    } catch (error) {
      await screenshot(page, "failure-offers-balance");
      throw error;
    } finally {
      await session.context.close();
    }
  }, 180_000);

  it("the cap's offer pays what it says, and promises no second request while this one is open", async () => {
    const session = await openSession(browser());
    const { page, wallet } = session;
    try {
      await fundFromFaucet(env.faucetUrl, env.rpcUrl, wallet?.address ?? "", 40_000n * USDC);
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await connectWallet(page);
      await page.getByText("Balance: 40,000.00 USDC").waitFor({ timeout: 30_000 });
      await deposit(page, "30000");
      await page.getByRole("tab", { name: "withdraw" }).click();
      await page.getByLabel("Shares to withdraw").fill("26000");
      const refusal = page.getByTestId("withdraw-refusal");
      await refusal.waitFor();
      const reason = await textOf(page, "withdraw-refusal");
      expect(reason).not.toContain("Cap reached");
      // Said once, and the request cannot be sent until the offer is taken.
      expect(await page.getByText(/withdrawal cap has/).count()).toBe(1);
      const send = page.getByRole("button", { name: "Request withdrawal" });
      expect(await send.isDisabled()).toBe(true);
      const signaturesBefore = wallet?.signatures ?? 0;
      // Within the hour: the clock alone, or from 23:00 the next day's midnight, which carries its date.
      expect(reason).toMatch(
        /^The hourly withdrawal cap has [\d,.]+ USDC left until (\d{1,2}:\d\d( [AP]M)?|\S+ \d{1,2}, 12:00 AM) \S+; this request is worth more\./,
      );
      // One request is open at a time: nothing offers "the rest after 02:00".
      expect(reason).not.toMatch(/the rest after/);
      expect(reason).toContain("the rest can be requested once this one is claimed or cancelled");
      const offer = refusal.getByRole("button", {
        name: /^Request what fits now: you receive about [\d,.]+ USDC$/,
      });
      const promised = figure((await offer.innerText()).split("about")[1] ?? "");
      const capLeft = figure(reason);
      // Net of the 0.10% fee: less than the cap's room it fills.
      expect(promised).toBeLessThan(capLeft);
      await offer.click();
      await refusal.waitFor({ state: "detached" });
      expect(
        Number((await page.getByLabel("Shares to withdraw").inputValue()).replace(/,/g, "")),
      ).toBeLessThan(26_000);
      expect(await send.isDisabled()).toBe(false);
      expect(wallet?.signatures ?? 0).toBe(signaturesBefore);
      await screenshot(page, "10-error-cap-reached");
      const preview = await textOf(page, "withdraw-preview");
      expect(figure(preview.split("You receive about")[1] ?? "")).toBe(promised);

      await send.click();
      await page.getByTestId("withdraw-status-confirm").click({ timeout: 45_000 });
      await page.getByTestId("pending-withdrawal").waitFor({ timeout: 45_000 });
      // The request pays what the offer said (the share price may have moved a cent since).
      expect(Math.abs(figure(await textOf(page, "pending-net")) - promised)).toBeLessThanOrEqual(0.02);
      await screenshot(page, "offers-cap");
    } catch (error) {
      await screenshot(page, "failure-offers-cap");
      throw error;
    } finally {
      await session.context.close();
    }
  }, 180_000);

  it("the blink offers no amount below the vault's minimum, and says the minimum by value", async () => {
    const withdraw = `${env.appUrl}/api/actions/vault/${env.primeVaultId}/withdraw`;
    const metadata = (await (await fetch(`${withdraw}?amount=0.5`)).json()) as {
      error?: { message: string };
      links?: { actions: { label: string; parameters?: { name: string; min?: number }[] }[] };
    };
    const labels = (metadata.links?.actions ?? []).map((action) => action.label);
    expect(labels).not.toContain("Withdraw 0.50 USDC");
    expect(metadata.error?.message).toMatch(
      /^0\.50 USDC is less than this vault's minimum withdrawal, [\d.]+ USDC \(1\.00 vUSDC\); choose a larger amount\.$/,
    );
    const minimum = Number(/minimum withdrawal, ([\d.]+) USDC/.exec(metadata.error?.message ?? "")?.[1]);
    const valueField = (metadata.links?.actions ?? [])
      .flatMap((action) => action.parameters ?? [])
      .find((field) => field.name === "amount");
    expect(valueField?.min).toBe(minimum);
    // The minimum's own link is offered, and its POST is not refused for the minimum.
    const atMinimum = (await (await fetch(`${withdraw}?amount=${minimum}`)).json()) as typeof metadata;
    expect(atMinimum.links?.actions[0]?.label).toBe(`Withdraw ${minimum.toFixed(2)} USDC`);
    expect(atMinimum.error).toBeUndefined();
  });
});

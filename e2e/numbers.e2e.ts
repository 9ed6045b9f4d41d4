// Issue 29's numbers, re-run in Chromium: figures written as the reader's locale reads them (de-DE),
// money lines that add up as shown, small fees with their digits, a position worth what was deposited,
// a daily reset 24 h away with its date and zone; and, after a small claim (the owner's, or the local
// keeper's delivery when it lands first), the fee it paid told apart from profit in the portfolio, the
// activity and the partner API, and the header's price at the end of the chart.
import { PublicKey } from "@solana/web3.js";
import type { Page } from "playwright";
import { describe, expect, inject, it } from "vitest";

import { soleLeaderLock } from "../lib/indexer/leader-lock";
import { Keeper } from "../lib/keeper/keeper";
import { parseNavSource } from "../lib/keeper/nav-source";
import { ChainClient } from "../lib/operator/chain-client";
import { devRoles } from "../localnet/genesis";
import {
  browserPerFile,
  claimOrSeeDelivered,
  confirmInWallet,
  connectWallet,
  openSession,
  screenshot,
  textOf,
} from "./support/browser";
import "./support/environment";

const env = inject("e2e");
const browser = browserPerFile();

/** A figure as de-DE writes it ("1.234,56") back to a number, for arithmetic on what is shown. */
function germanNumber(text: string): number {
  return Number(text.replaceAll(".", "").replace(",", "."));
}

/** The hour of day in Berlin now: the daily cap resets at 00:00 UTC, 01:00 there (November, MEZ). */
function berlinHour(): number {
  return Number(
    new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone: "Europe/Berlin" }).format(
      Date.now(),
    ),
  );
}

interface PortfolioAnswer {
  data: {
    positions: {
      vaultId: string;
      unrealizedPnl: { amount: string };
      realizedPnl: { amount: string };
      totalPnl: { amount: string };
      feesPaid: { amount: string };
    }[];
  };
}

async function fundAndOpen(page: Page, balanceText: string): Promise<void> {
  await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
  await page.getByTestId("vault-name").waitFor();
  await connectWallet(page);
  await page.getByRole("button", { name: "Get test funds" }).click();
  await page.getByText(`Balance: ${balanceText}`).waitFor({ timeout: 30_000 });
}

async function deposit(page: Page, amount: string): Promise<void> {
  await page.getByLabel("Amount to deposit").fill(amount);
  await page.getByRole("button", { name: "Deposit", exact: true }).click();
  await confirmInWallet(page, "deposit-status");
  await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
}

describe("a reader in de-DE, Berlin", () => {
  it("reads every figure as it types them, lines that add up, a 77,00 position and dated resets", async () => {
    const session = await openSession(browser(), { locale: "de-DE", timezoneId: "Europe/Berlin" });
    const { page } = session;
    try {
      // "9,998.50 USDC" was read by a German as ≈ 10: it is 10.000,00 here.
      await fundAndOpen(page, "10.000,00 USDC");

      // The daily cap resets at 01:00 MEZ: 24 h away it carries its date and zone, not a bare "01:00".
      const resets = page.getByText(/^Resets at .*\d\d:00/);
      await resets.nth(1).waitFor();
      const daily = (await resets.nth(1).innerText()).replace(/\s+/g, " ");
      expect(daily).toMatch(
        berlinHour() === 0 ? /^Resets at 01:00 MEZ$/ : /^Resets at \d{1,2}\. \S+ 01:00 MEZ$/,
      );
      expect((await resets.nth(0).innerText()).replace(/\s+/g, " ")).toMatch(
        /^Resets at (\d{1,2}\. \S+ )?\d\d:00 MEZ$/,
      );

      // Depositing 77,00 leaves a position of 77,00 (its shares are worth 76,999999), never 76,99; the
      // shares received have their six decimals.
      await deposit(page, "77");
      expect(await textOf(page, "deposit-success")).toMatch(
        /Deposited 77,00 USDC and received 7\d,\d{6} vUSDC\./,
      );
      await page.waitForFunction(() =>
        /USDC/.test(document.querySelector('[data-testid="position-value"]')?.textContent ?? ""),
      );
      expect(await textOf(page, "position-value")).toBe("77,00 USDC");
      await screenshot(page, "numbers-de-position");

      // A deposit's network fee is 0,000005 SOL (5,000 lamports), never "0 SOL".
      await page.getByLabel("Amount to deposit").fill("1");
      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      await page.getByTestId("deposit-status-confirm").waitFor({ timeout: 45_000 });
      const changes = await textOf(page, "deposit-status-preview");
      expect(changes).toMatch(/You pay 1,00* USDC/);
      expect(changes).toMatch(/Network fee and account rent: 0,0000\d+ SOL/);
      expect(changes).not.toMatch(/: 0 SOL/);
      await confirmInWallet(page, "deposit-status");
      await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });

      // Withdraw a value of 1,2: gross − fee = net as shown, with the 0,0012 fee's digits
      // (issue 29: "Gross 1.20 − Fee 0.00 = You receive 1.19").
      await page.getByRole("tab", { name: "withdraw" }).click();
      await page.getByLabel(/^Value \(USDC\)$/).check();
      await page.getByLabel("Value to withdraw").fill("1,2");
      const preview = await textOf(page, "withdraw-preview");
      const gross = /Gross value ([\d.,]+) USDC/.exec(preview)?.[1] ?? "";
      const fee = /Fee \(0,10 %\) − ([\d.,]+) USDC/.exec(preview)?.[1] ?? "";
      const net = /You receive about ([\d.,]+) USDC/.exec(preview)?.[1] ?? "";
      expect({ gross, fee, net }, preview).toEqual({ gross: "1,2000", fee: "0,0012", net: "1,1988" });
      expect(Math.round((germanNumber(gross) - germanNumber(fee)) * 10_000)).toBe(
        Math.round(germanNumber(net) * 10_000),
      );
      // The caps' room in the same precision and the same clock, with the zone.
      const capacity = await textOf(page, "withdraw-capacity");
      // The hourly cap resets within the hour: the clock alone, or, from 23:00 MEZ, midnight with its date.
      expect(capacity).toMatch(
        /Hourly cap [\d.]+,\d{4} USDC left \(resets (\d\d:00|\d{1,2}\. \S+ 00:00) MEZ\)/,
      );
      expect(capacity).toMatch(
        berlinHour() === 0
          ? /Daily cap [\d.]+,\d{4} USDC left \(resets 01:00 MEZ\)/
          : /Daily cap [\d.]+,\d{4} USDC left \(resets \d{1,2}\. \S+ 01:00 MEZ\)/,
      );
      await screenshot(page, "numbers-de-withdraw-preview");
      // The server wrote the figures in the same locale the browser does: no hydration mismatch.
      expect(session.problems.filter((problem) => /pageerror|hydrat/i.test(problem))).toEqual([]);
    } catch (error) {
      await screenshot(page, "failure-numbers-de");
      throw error;
    } finally {
      await session.context.close();
    }
  });
});

describe("a small claim, in en-US", () => {
  it("shows the fee it paid (0.0015 USDC), tells it apart from profit, and one share price", async () => {
    const session = await openSession(browser());
    const { page } = session;
    try {
      await fundAndOpen(page, "10,000.00 USDC");
      await deposit(page, "200");
      await page.getByRole("tab", { name: "withdraw" }).click();
      await page.getByLabel("Shares to withdraw").fill("1.5");
      await page.getByRole("button", { name: "Request withdrawal" }).click();
      await confirmInWallet(page, "withdraw-status");
      await page.getByTestId("pending-withdrawal").waitFor({ timeout: 45_000 });
      // The pending card's line adds up as shown: 1.5000 less a 0.0015 fee.
      expect(await textOf(page, "pending-withdrawal")).toMatch(
        /1\.50\d\d USDC less a 0\.0015 USDC fee \(0\.10%\)/,
      );
      const claim = page.getByTestId("claim-button");
      const arrived = page.getByTestId("withdrawal-arrived");
      // Other files' requests may sit ahead in the shared vault's queue, more than the local keeper
      // funds per stage: the manager's key funds the queue from the reserve as a keeper would, and the
      // test waits for the NAV strike after the request, the state the claim needs (in whose pass the
      // local keeper may deliver it).
      const keeper = new Keeper({
        client: new ChainClient(env.rpcUrl),
        manager: devRoles().manager,
        navSource: parseNavSource("simulated:0"),
        lock: soleLeaderLock(),
        vaults: [new PublicKey(env.primeVaultId)],
        settings: { stageMaxShares: 2n ** 62n },
        log: () => undefined,
      });
      const claimableOrDelivered = async (): Promise<boolean> =>
        (await arrived.count()) > 0 || (await claim.and(page.locator(":enabled")).count()) > 0;
      await expect
        .poll(
          async () => {
            if (!(await claimableOrDelivered())) {
              await keeper.stageWithdrawals(new PublicKey(env.primeVaultId));
            }
            return claimableOrDelivered();
          },
          { timeout: (env.navIntervalSeconds * 3 + 30) * 1000, interval: 2_000 },
        )
        .toBe(true);
      if ((await claimOrSeeDelivered(page, 30_000)) === "claimed") {
        // Issue 29: "after a 0.00 USDC fee" when 0.0015 was charged.
        expect(await textOf(page, "claim-success")).toMatch(
          /1\.49\d\d USDC arrived in your wallet \(after a 0\.0015 USDC fee\)/,
        );
      } else {
        expect(await textOf(page, "withdrawal-arrived")).toMatch(/Arrived: 1\.49\d* USDC in your wallet/);
      }
      await page
        .getByText(/fee 0\.0015 USDC/)
        .first()
        .waitFor({ timeout: 30_000 });

      // The header's price is where the chart ends ("Now"), one source for both.
      const header = await textOf(page, "share-price");
      await page.getByText(`Now: ${header} USDC per share`).waitFor({ timeout: 15_000 });

      // The portfolio, once the indexer has the claim: the fee paid, and the result told apart. The
      // answer the page reads is the partner API's (GET /api/portfolio): total = realized + unrealized.
      let portfolio: PortfolioAnswer | null = null;
      page.on("response", (response) => {
        if (response.url().includes("/api/portfolio?") && response.status() === 200) {
          // A reload may discard a body before it is read: the next answer is read instead.
          response.json().then(
            (body: PortfolioAnswer) => (portfolio = body),
            () => undefined,
          );
        }
      });
      await page.goto(`${env.appUrl}/portfolio`);
      const feesPaid = page.getByTestId("position-fees-paid");
      await expect
        .poll(
          async () => {
            if ((await feesPaid.count()) > 0 && (await feesPaid.innerText()).includes("0.0015")) {
              return true;
            }
            await page.reload();
            await feesPaid.waitFor({ timeout: 15_000 });
            return (await feesPaid.innerText()).includes("0.0015");
          },
          { timeout: 60_000, interval: 2_000 },
        )
        .toBe(true);
      expect(await textOf(page, "position-fees-paid")).toBe("Withdrawal fees paid 0.0015 USDC");
      // The result is realized + unrealized as shown (the fee counted as the cost it is), never the
      // unrealized part alone; other tests' exits may move the price, so the figures are read back.
      const total = await textOf(page, "position-total-pnl");
      const parts = await textOf(page, "position-pnl-parts");
      expect(total).toMatch(/^Result [+−]?\d+\.\d{2,4} USDC \([+−]?\d+\.\d{2,4}% of deposits\)$/);
      expect(parts).toMatch(/^realized [+−]?\d+\.\d{2,4} USDC · unrealized [+−]?\d+\.\d{2,4} USDC$/);
      const signed = (text: string) => Number(text.replace("−", "-").replace("+", ""));
      const [realized = "", unrealized = ""] = [...parts.matchAll(/([+−]?\d+\.\d+) USDC/g)].map(
        (m) => m[1] ?? "",
      );
      const shownTotal = /^Result ([+−]?\d+\.\d+) USDC/.exec(total)?.[1] ?? "";
      expect(Math.abs(signed(realized) + signed(unrealized) - signed(shownTotal))).toBeLessThanOrEqual(
        0.00011,
      );
      const position = (portfolio as PortfolioAnswer | null)?.data.positions.find(
        (entry) => entry.vaultId === env.primeVaultId,
      );
      const fee = BigInt(position?.feesPaid.amount ?? "0");
      expect(fee >= 1_500n && fee < 1_550n, `fee ${fee}`).toBe(true);
      expect(BigInt(position?.totalPnl.amount ?? "x")).toBe(
        BigInt(position?.realizedPnl.amount ?? "x") + BigInt(position?.unrealizedPnl.amount ?? "x"),
      );
      await screenshot(page, "numbers-portfolio");
    } catch (error) {
      await screenshot(page, "failure-numbers-claim");
      throw error;
    } finally {
      await session.context.close();
    }
  });
});

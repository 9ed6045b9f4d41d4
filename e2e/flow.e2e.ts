// The whole journey in a real browser with a fresh wallet: connect, faucet, deposit, position,
// request a withdrawal, watch its band and progress move as the keeper works, then claim it or (the
// local keeper delivers claimable withdrawals in the pass that makes them so) see it delivered, and
// find it all in activity and the portfolio; and a withdrawal the keeper delivers, shown as delivered,
// by whom, without the owner claiming, and listed so in the activity.
import type { Page } from "playwright";
import { describe, expect, inject, it } from "vitest";

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

describe("a fresh wallet from connecting to a withdrawal in its wallet", () => {
  it("deposits, requests, watches the queue, claims or sees it delivered, and sees its activity", async () => {
    const { page, wallet, problems } = await openSession(browser());
    try {
      await journey(page, wallet?.address ?? "");
    } catch (error) {
      await screenshot(page, "failure-flow");
      throw error;
    }
    expect(problems.filter((problem) => problem.startsWith("pageerror"))).toEqual([]);
  });
});

describe("a withdrawal the keeper delivers", () => {
  it("turns delivered, by the keeper, with its net amount and time; the activity lists it delivered, the request done", async () => {
    const { page, problems } = await openSession(browser());
    try {
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await page.getByTestId("vault-name").waitFor();
      await connectWallet(page);
      await page.getByRole("button", { name: "Get test funds" }).click();
      await page.getByText("Balance: 10,000.00 USDC").waitFor({ timeout: 30_000 });
      await page.getByLabel("Amount to deposit").fill("200");
      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      await confirmInWallet(page, "deposit-status");
      await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
      await page.getByRole("tab", { name: "withdraw" }).click();
      await page.getByLabel("Shares to withdraw").fill("100");
      await page.getByRole("button", { name: "Request withdrawal" }).click();
      await confirmInWallet(page, "withdraw-status");
      await page.getByTestId("pending-withdrawal").waitFor({ timeout: 45_000 });
      const promised = await textOf(page, "pending-net");
      // The local chain's keeper strikes, stages and, once the request is claimable, sends its claim
      // for the owner (the dev manager's key, as `npm run keeper` does): the owner touches nothing.
      const arrived = page.getByTestId("withdrawal-arrived");
      await arrived.waitFor({ timeout: (env.navIntervalSeconds * 3 + 30) * 1000 });
      expect(await page.getByTestId("pending-withdrawal").count()).toBe(0);
      const keeper = devRoles().manager.publicKey.toBase58();
      const short = `${keeper.slice(0, 4)}…${keeper.slice(-4)}`;
      // Who it was is the status read's word, right after the event's.
      await page.getByText(/The vault's keeper \(/).waitFor({ timeout: 15_000 });
      const words = await textOf(page, "withdrawal-arrived");
      expect(words).toMatch(
        /^Withdrawal delivered ?Arrived: 99\.\d\d USDC in your wallet at \d{1,2}:\d\d( [AP]M)? \S+\. The vault's keeper \(\S+\) sent the claim for you/,
      );
      expect(await textOf(page, "withdrawal-delivered-by")).toBe(short);
      // What arrived is what the pending panel promised, to the cent.
      expect(words).toContain(`Arrived: ${promised} in your wallet`);
      expect(await page.getByTestId("claim-success").count()).toBe(0);
      await screenshot(page, "10-delivered");

      // The vault's activity, refetched on the event: the delivery by the keeper, and the request done.
      const delivered = page.locator('[data-kind="claim"][data-delivered="true"]');
      await delivered.first().waitFor({ timeout: 20_000 });
      expect((await delivered.first().innerText()).replace(/\s+/g, " ")).toBe(
        `Withdrawal delivered by ${short}`,
      );
      expect(await page.getByTestId("request-state").count()).toBe(0);

      // And on the Activity page: delivered, by whom, what arrived and its fee; no request Pending.
      await page.getByRole("link", { name: "Activity" }).click();
      await page.waitForURL(/\/activity$/, { timeout: 20_000 });
      await page.getByRole("heading", { name: "Activity", level: 1 }).waitFor({ timeout: 20_000 });
      const row = page.getByTestId("activity-list").getByRole("listitem").filter({ has: delivered });
      await row.first().waitFor({ timeout: 20_000 });
      const line = (await row.first().innerText()).replace(/\s+/g, " ");
      expect(line).toMatch(new RegExp(`^Withdrawal delivered by ${short} · USDC Prime `));
      expect(line).toContain(`+${promised}`);
      expect(line).toMatch(/for 100\.000000 vUSDC, fee 0\.1\d USDC$/);
      expect(await textOf(page, "activity-list")).toContain("Withdrawal requested");
      expect(await page.getByTestId("request-state").count()).toBe(0);
      await screenshot(page, "10-delivered-activity");
    } catch (error) {
      await screenshot(page, "failure-delivered");
      throw error;
    }
    expect(problems.filter((problem) => problem.startsWith("pageerror"))).toEqual([]);
  });
});

describe("the vault page's share price chart", () => {
  // After the journey the keeper has struck several NAVs with shares outstanding.
  it("is drawn from GET /api/vault/{id}/nav-history by minute while the vault is young", async () => {
    const { page, problems } = await openSession(browser());
    try {
      const series: { url: string; status: number }[] = [];
      page.on("response", (response) => {
        if (response.url().includes("/nav-history?")) {
          series.push({ url: response.url(), status: response.status() });
        }
      });
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      // Until two strikes are indexed the chart says it appears after them; the page refetches.
      await page.waitForFunction(
        () =>
          Number(document.querySelector('[data-testid="share-price-line"]')?.getAttribute("data-points")) >=
          2,
        undefined,
        { timeout: (env.navIntervalSeconds * 3 + 30) * 1000 },
      );
      const path = (await page.getByTestId("share-price-line").getAttribute("d")) ?? "";
      expect(path.split(/[ML]/).filter((point) => point !== "").length).toBeGreaterThanOrEqual(2);
      expect(series.length).toBeGreaterThanOrEqual(1);
      expect(series.filter((request) => request.status !== 200)).toEqual([]);
      expect(series[0]?.url).toContain("interval=minute");
      // Axes: three price ticks on an axis at least 0.2% of the price wide (the keeper's small strikes
      // are a slope, not a cliff), three times, and a readout of the strike under the pointer.
      const line = page.getByTestId("share-price-line");
      const low = Number(await line.getAttribute("data-min"));
      const high = Number(await line.getAttribute("data-max"));
      expect(high - low).toBeGreaterThanOrEqual(((high + low) / 2) * 0.002 * 0.999);
      expect(await page.getByTestId("price-tick").count()).toBe(3);
      expect(await page.getByTestId("time-tick").count()).toBe(3);
      const box = await page.locator("svg[role=img]").first().boundingBox();
      await page.mouse.move((box?.x ?? 0) + (box?.width ?? 0) - 2, (box?.y ?? 0) + 10);
      expect(await textOf(page, "chart-readout")).toMatch(
        /(\d{1,2}:\d\d( [AP]M)?|Now): 1\.\d{6} USDC per share/,
      );
      await page.getByRole("button", { name: "24 h" }).click();
      expect(await page.getByRole("button", { name: "24 h" }).getAttribute("aria-pressed")).toBe("true");
      await screenshot(page, "10-share-price-chart");
    } catch (error) {
      await screenshot(page, "failure-chart");
      throw error;
    }
    expect(problems.filter((problem) => problem.startsWith("pageerror"))).toEqual([]);
  });
});

async function journey(page: Page, address: string): Promise<void> {
  {
    await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
    await page.getByTestId("vault-name").waitFor();
    expect(await textOf(page, "vault-name")).toBe("USDC Prime");
    await screenshot(page, "01-vault-page");

    // Sharing copies the page's https URL, which /actions.json maps to the vault's deposit action.
    await page.getByTestId("share-blink").click();
    expect(await page.getByTestId("blink-url").inputValue()).toBe(`${env.appUrl}/vault/${env.primeVaultId}`);

    await connectWallet(page);
    expect(await textOf(page, "wallet-address")).toContain(address.slice(0, 4));

    await page.getByRole("button", { name: "Get test funds" }).click();
    await page.getByText("Test USDC and SOL arrived in your wallet.").waitFor({ timeout: 30_000 });
    await page.getByText("Balance: 10,000.00 USDC").waitFor({ timeout: 15_000 });
    await screenshot(page, "02-connected-funded");

    // Deposit 1,000 USDC: a preview first, then the wallet signs, then it is confirmed and recorded.
    await page.getByLabel("Amount to deposit").fill("1000");
    expect(await textOf(page, "deposit-preview")).toMatch(/You receive about [\d,.]+ vUSDC/);
    await page.getByRole("button", { name: "Deposit", exact: true }).click();
    await confirmInWallet(page, "deposit-status");
    await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
    expect(await textOf(page, "deposit-success")).toMatch(
      /Deposited 1,000\.00 USDC and received [\d,.]+ vUSDC/,
    );
    await page.waitForFunction(() =>
      /USDC/.test(document.querySelector('[data-testid="position-value"]')?.textContent ?? ""),
    );
    expect(await textOf(page, "position-value")).toMatch(/^(999|1,000)\.\d\d USDC$/);
    await screenshot(page, "03-deposited");

    // Request a withdrawal of 100 shares with the fee/gross/net breakdown and the caps shown first.
    await page.getByRole("tab", { name: "withdraw" }).click();
    await page.getByLabel("Shares to withdraw").fill("100");
    const preview = await textOf(page, "withdraw-preview");
    expect(preview).toMatch(/Gross value [\d,.]+ USDC/);
    expect(preview).toMatch(/Fee \(0\.10%\) − 0\.1\d USDC/);
    expect(preview).toMatch(/You receive about 99\.\d\d USDC/);
    expect(await textOf(page, "withdraw-capacity")).toMatch(
      // Within the hour: the clock alone, or from 23:00 the next day's midnight with its date.
      /Hourly cap [\d,.]+ USDC left \(resets (\d{1,2}:\d\d( [AP]M)?|\S+ \d{1,2}, 12:00 AM) \S+\)/,
    );
    await screenshot(page, "04-withdraw-preview");
    await page.getByRole("button", { name: "Request withdrawal" }).click();
    await confirmInWallet(page, "withdraw-status");
    await page.getByTestId("withdraw-success").waitFor({ timeout: 45_000 });
    await page.getByTestId("pending-withdrawal").waitFor({ timeout: 15_000 });
    await page.getByText(/^Withdrawal queue: [\d,.]+ vUSDC requested/).waitFor({ timeout: 15_000 });
    // The steps, the request's time with its zone and how long ago, and the net amount (not the gross).
    const steps = page.getByTestId("withdrawal-steps").getByRole("listitem");
    expect(await steps.count()).toBe(5);
    expect(await steps.first().getAttribute("data-state")).toBe("done");
    expect((await steps.first().innerText()).replace(/\s+/g, " ")).toMatch(
      // In the browser's locale (Chromium's en-US here: "2:05 PM UTC").
      /Requested \(done\) ?· \d{1,2}:\d\d( [AP]M)? \S+ \((just now|~\d+ (s|min) ago)\)/,
    );
    // The panel shows what the preview promised: the amount after the receipt's 0.10% fee, not the gross.
    expect(await textOf(page, "pending-net")).toMatch(/^99\.\d\d USDC$/);
    expect(await textOf(page, "pending-withdrawal")).toMatch(
      /[\d,.]+ USDC less a 0\.\d+ USDC fee \(0\.10%\)/,
    );
    // The vault's activity marks the open request.
    await page.getByTestId("request-state").waitFor({ timeout: 15_000 });
    expect(await textOf(page, "request-state")).toMatch(/^(Pending|Claimable)$/);

    // Watch it: the arrival band and the binding condition, the progress bar moving as the keeper
    // stages the queue, until the claim is possible or (the local keeper delivers in the pass that
    // makes it claimable) the withdrawal is delivered. One read of the page per look: the card may go
    // between two reads.
    const progress = new Set<number>();
    const kinds = new Set<string>();
    let band: string | null = null;
    const deadline = Date.now() + (env.navIntervalSeconds * 3 + 30) * 1000;
    while (Date.now() < deadline) {
      const look = await page.evaluate(() => {
        const byId = (id: string) => document.querySelector(`[data-testid="${id}"]`);
        const claimButton = byId("claim-button");
        return {
          progress: byId("withdrawal-progress")?.getAttribute("aria-valuenow") ?? null,
          kind: byId("binding-condition")?.getAttribute("data-kind") ?? null,
          band: byId("arrival-band")?.textContent ?? null,
          claimable: claimButton instanceof HTMLButtonElement && !claimButton.disabled,
          delivered: byId("withdrawal-arrived") !== null,
        };
      });
      if (look.claimable || look.delivered) {
        break;
      }
      if (look.progress !== null) {
        progress.add(Number(look.progress));
      }
      kinds.add(look.kind ?? "");
      if (
        band === null &&
        /arrives between \d{1,2}:\d\d( [AP]M)? and \d{1,2}:\d\d( [AP]M)?/.test(look.band ?? "")
      ) {
        band = look.band;
        await screenshot(page, "05-pending-band");
      }
      await page.waitForTimeout(500);
    }
    expect(band, "an arrival band was shown").toMatch(
      /^Your withdrawal arrives between \d{1,2}:\d\d( [AP]M)? and \d{1,2}:\d\d( [AP]M)?$/,
    );
    expect([...progress].length, `progress moved: ${[...progress].join(", ")}`).toBeGreaterThanOrEqual(2);
    expect([...kinds].some((kind) => kind === "nav" || kind === "staging")).toBe(true);

    // The owner claims if the page offers it first; else the keeper's delivery shows.
    const ended = await claimOrSeeDelivered(page, 30_000);
    if (ended === "claimed") {
      expect(await textOf(page, "claim-success")).toMatch(
        /99\.\d\d USDC arrived in your wallet \(after a 0\.1\d USDC fee\)/,
      );
    } else {
      await page.getByText(/The vault's keeper \(/).waitFor({ timeout: 15_000 });
      expect(await textOf(page, "withdrawal-arrived")).toMatch(
        /Arrived: 99\.\d\d USDC in your wallet at \d{1,2}:\d\d( [AP]M)? \S+\. The vault's keeper/,
      );
    }
    await page.getByTestId("pending-withdrawal").waitFor({ state: "detached", timeout: 15_000 });
    await screenshot(page, "07-claimed");

    await page.getByRole("link", { name: "Activity" }).click();
    // The vault page has an activity list too: read the Activity page's, once it is the one shown.
    await page.waitForURL(/\/activity$/, { timeout: 20_000 });
    await page.getByRole("heading", { name: "Activity", level: 1 }).waitFor({ timeout: 20_000 });
    await page.getByTestId("activity-list").waitFor({ timeout: 20_000 });
    const activity = await textOf(page, "activity-list");
    expect(activity).toContain("Deposit");
    expect(activity).toContain("Withdrawal requested");
    expect(activity).toContain(ended === "claimed" ? "Withdrawal claimed" : "Withdrawal delivered by");
    // Claimed or delivered: no request is open any more.
    expect(await page.getByTestId("request-state").count()).toBe(0);
    // Every signature links to the explorer of this cluster: the local chain through its own RPC URL.
    const links = await page
      .getByTestId("activity-signature")
      .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""));
    expect(links.length).toBeGreaterThanOrEqual(3);
    for (const href of links) {
      expect(href).toMatch(
        /^https:\/\/explorer\.solana\.com\/tx\/[1-9A-HJ-NP-Za-km-z]{64,88}\?cluster=custom&customUrl=http%3A%2F%2F127\.0\.0\.1%3A\d+$/,
      );
    }
    await screenshot(page, "08-activity");

    await page.getByRole("link", { name: "Portfolio" }).click();
    await page.getByTestId("portfolio-positions").waitFor({ timeout: 20_000 });
    expect(await textOf(page, "portfolio-positions")).toContain("USDC Prime");
    await screenshot(page, "09-portfolio");
  }
}

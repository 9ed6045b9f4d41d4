// A paused chain (issue 29, item 6): the app's server and the browser both lose the node for about
// 20 s (the world's proxy takes connections and never answers). The page says so once, keeps the
// figures it last read, a deposit tried meanwhile says the server's 503 as soon as it comes, and
// every card is itself again once the chain answers. A page opened during the stall shows the last
// indexed figures, never a blank skeleton again.
import type { Page } from "playwright";
import { describe, expect, inject, it } from "vitest";

import {
  browserPerFile,
  confirmInWallet,
  connectWallet,
  openSession,
  screenshot,
  textOf,
} from "./support/browser";
import { USDC, fundFromFaucet, pauseChain, resumeChain } from "./support/chain";
import "./support/environment";

const env = inject("e2e");
const browser = browserPerFile();

const STALL_WORDS = "The chain is unreachable";

/** How many times the page says the chain is unreachable, alerts and boxes alike. */
function stallNotices(page: Page): Promise<number> {
  return page.getByText(STALL_WORDS).count();
}

/** Samples `check` every half second for `ms`, returning every value seen. */
async function sample<T>(ms: number, check: () => Promise<T>): Promise<T[]> {
  const seen: T[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    seen.push(await check());
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return seen;
}

describe("a paused chain", () => {
  it("one notice, the last figures kept, the deposit's 503 said at once, and every card back when it returns", async () => {
    const session = await openSession(browser());
    const { page } = session;
    let paused = false;
    try {
      await fundFromFaucet(env.faucetUrl, env.rpcUrl, session.wallet?.address ?? "", 100n * USDC);
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await connectWallet(page);
      await page.getByText("Balance: 100.00 USDC").waitFor({ timeout: 30_000 });
      await page.getByLabel("Amount to deposit").fill("10");
      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      await confirmInWallet(page, "deposit-status");
      await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
      await page.getByRole("listitem").filter({ hasText: "Deposit" }).first().waitFor({ timeout: 30_000 });
      const price = await textOf(page, "share-price");

      await pauseChain(env.chainControlUrl);
      paused = true;
      await page.getByText(STALL_WORDS).first().waitFor({ timeout: 30_000 });

      // Twenty seconds of stall: one notice at every moment, the figures stay, nothing about a
      // withdrawal next to the deposit form.
      const seen = await sample(20_000, async () => ({
        notices: await page.getByTestId("chain-stall").count(),
        stallWords: await stallNotices(page),
        // Alerts that say something (Next.js keeps an empty one to announce route changes).
        alerts: await page.getByRole("alert").filter({ hasText: /\S/ }).count(),
        price: await page.getByTestId("share-price").count(),
        withdrawalRetry: await page.getByText("Try again: load this wallet's withdrawal").count(),
      }));
      await screenshot(page, "stall-paused");
      console.log(`stall: per half second ${JSON.stringify(seen.map((moment) => Object.values(moment)))}`);
      expect.soft(seen.map((moment) => moment.notices)).toEqual(seen.map(() => 1));
      expect.soft(Math.max(...seen.map((moment) => moment.stallWords))).toBe(1);
      expect.soft(Math.max(...seen.map((moment) => moment.alerts))).toBe(1);
      expect.soft(Math.max(...seen.map((moment) => moment.withdrawalRetry))).toBe(0);
      expect.soft(Math.min(...seen.map((moment) => moment.price))).toBe(1);
      expect.soft(await textOf(page, "share-price")).toBe(price);
      const noticeText =
        (await page.getByTestId("chain-stall").count()) === 0 ? "" : await textOf(page, "chain-stall");
      expect
        .soft(noticeText)
        .toMatch(/^The chain is unreachable .*as of \d{1,2}:\d\d( [AP]M)?, when it last answered/);

      // A deposit while the node is silent: the server answers 503 within its RPC timeout, and the
      // form says so then, not after the page's own chain reads (10 s each) have given up.
      await page.getByLabel("Amount to deposit").fill("5");
      const refused = page.waitForResponse(
        (response) => response.url().endsWith("/deposit") && response.request().method() === "POST",
      );
      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      expect((await refused).status()).toBe(503);
      const answeredAt = Date.now();
      await page.getByTestId("deposit-status-error").waitFor({ timeout: 30_000 });
      const saidAfterMs = Date.now() - answeredAt;
      console.log(`stall: the deposit's 503 was said ${saidAfterMs} ms after the server answered`);
      expect.soft(saidAfterMs).toBeLessThan(5_000);
      expect(await page.getByRole("button", { name: "Deposit", exact: true }).isEnabled()).toBe(true);

      await resumeChain(env.chainControlUrl);
      paused = false;
      const resumedAt = Date.now();
      // Every card is itself again once the chain answers: no notice, no card's error, the activity there.
      await page.getByText(STALL_WORDS).first().waitFor({ state: "detached", timeout: 30_000 });
      await page
        .getByText(/^Try again:/)
        .first()
        .waitFor({ state: "detached", timeout: 30_000 });
      console.log(`stall: every card was itself again ${Date.now() - resumedAt} ms after the chain returned`);
      await page.getByRole("listitem").filter({ hasText: "Deposit" }).first().waitFor();
      await screenshot(page, "stall-resumed");
    } catch (error) {
      await screenshot(page, "failure-stall");
      throw error;
    } finally {
      if (paused) {
        await resumeChain(env.chainControlUrl);
      }
      await session.context.close();
    }
  }, 180_000);

  it("a page opened during the stall shows the last indexed figures, never a blank skeleton again", async () => {
    const session = await openSession(browser(), { wallet: false });
    const { page } = session;
    let paused = false;
    try {
      await pauseChain(env.chainControlUrl);
      paused = true;
      await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
      await page.getByTestId("indexed-fallback").waitFor({ timeout: 45_000 });
      const seen = await sample(20_000, async () => ({
        skeleton: await page.getByRole("status", { name: "Loading the vault" }).count(),
        figures: await page.getByTestId("indexed-fallback").count(),
        notices: await page.getByTestId("chain-stall").count(),
      }));
      await screenshot(page, "stall-fresh-load");
      console.log(
        `stall, fresh load: per half second ${JSON.stringify(seen.map((moment) => Object.values(moment)))}`,
      );
      expect.soft(Math.max(...seen.map((moment) => moment.skeleton))).toBe(0);
      expect.soft(Math.min(...seen.map((moment) => moment.figures))).toBe(1);
      expect.soft(seen.map((moment) => moment.notices)).toEqual(seen.map(() => 1));

      await resumeChain(env.chainControlUrl);
      paused = false;
      await page.getByTestId("share-price").waitFor({ timeout: 30_000 });
      await page.getByText(STALL_WORDS).first().waitFor({ state: "detached", timeout: 30_000 });
    } catch (error) {
      await screenshot(page, "failure-stall-fresh-load");
      throw error;
    } finally {
      if (paused) {
        await resumeChain(env.chainControlUrl);
      }
      await session.context.close();
    }
  }, 150_000);
});

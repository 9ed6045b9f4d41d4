// The vault page listening to the chain: a wallet requests a withdrawal, the page's event stream
// (GET /api/events/stream through the page session) opens, and once the keeper has staged the queue
// and struck a NAV the pending withdrawal says "Ready to claim" without a reload — while, once the
// status endpoint has shown it pending, every later status request is held unanswered, so the change
// can only have come from the stream.
import type { Browser, Page, Route } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { confirmInWallet, connectWallet, launchChromium, openSession, screenshot } from "./support/browser";
import "./support/environment";

const env = inject("e2e");
const EVENT_TYPES = [
  "deposit.confirmed",
  "withdrawal.requested",
  "withdrawal.claimable",
  "withdrawal.claimed",
  "vault.nav_updated",
];
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
});

/** Records, in the page, the events each EventSource receives (type and data), before any script runs. */
async function recordStreamEvents(page: Page): Promise<void> {
  await page.addInitScript((types: string[]) => {
    const seen: { type: string; data: string }[] = [];
    Object.assign(window, { __streamEvents: seen });
    class RecordingEventSource extends window.EventSource {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        for (const type of types) {
          this.addEventListener(type, (event: MessageEvent) => seen.push({ type, data: String(event.data) }));
        }
      }
    }
    window.EventSource = RecordingEventSource;
  }, EVENT_TYPES);
}

async function streamEvents(page: Page): Promise<{ type: string; data: string }[]> {
  return page.evaluate(
    () => (window as unknown as { __streamEvents: { type: string; data: string }[] }).__streamEvents,
  );
}

/** The page's poll reaches the chain's truth too (it is held, not lost): waits for one held answer. */
async function waitForHeld(held: readonly Route[]): Promise<void> {
  for (let attempt = 0; attempt < 100 && held.length === 0; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(held.length).toBeGreaterThanOrEqual(1);
}

describe("the vault page's event stream", () => {
  it("turns a pending withdrawal ready to claim from the stream, with the status endpoint's word held back", async () => {
    const { page, wallet, problems } = await openSession(browser);
    const held: Route[] = [];
    const streams: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/events/stream?")) {
        streams.push(request.url());
      }
    });
    try {
      await recordStreamEvents(page);
      await page.goto(`${env.appUrl}/vault/${env.flexVaultId}`);
      await page.getByTestId("vault-name").waitFor();
      await connectWallet(page);
      // Once the request is recorded and its panel shows it pending, every later status request is held
      // unanswered: from then on only the stream can tell the page. No status answer that says the
      // withdrawal is claimable may reach the page.
      const isStatus = (url: URL): boolean =>
        url.pathname === `/api/vault/${env.flexVaultId}/withdraw` && url.searchParams.has("wallet");
      let holding = false;
      let claimableAnswered = false;
      page.on("response", (response) => {
        if (!isStatus(new URL(response.url())) || response.request().method() !== "GET") {
          return;
        }
        void response
          .json()
          .then((body: { data?: { canClaimNow?: boolean } }) => {
            claimableAnswered ||= body.data?.canClaimNow === true;
          })
          .catch(() => undefined);
      });
      await page.route(isStatus, async (route) => {
        if (holding && route.request().method() === "GET") {
          held.push(route);
          return;
        }
        await route.continue();
      });
      await page.getByRole("button", { name: "Get test funds" }).click();
      await page.getByText("Test USDC and SOL arrived in your wallet.").waitFor({ timeout: 30_000 });

      await page.getByLabel("Amount to deposit").fill("100");
      await page.getByRole("button", { name: "Deposit", exact: true }).click();
      await confirmInWallet(page, "deposit-status");
      await page.getByTestId("deposit-success").waitFor({ timeout: 45_000 });
      await page.getByRole("tab", { name: "withdraw" }).click();
      await page.getByLabel("Shares to withdraw").fill("10");
      // Right after a NAV strike (seen on the stream), so the next one — which makes the request
      // claimable — is a whole keeper interval away while the request is recorded and shown pending.
      const strikes = (await streamEvents(page)).filter((event) => event.type === "vault.nav_updated").length;
      await page.waitForFunction(
        (seen) =>
          (window as unknown as { __streamEvents: { type: string }[] }).__streamEvents.filter(
            (event) => event.type === "vault.nav_updated",
          ).length > seen,
        strikes,
        { timeout: (env.navIntervalSeconds * 2 + 30) * 1000 },
      );
      await page.getByRole("button", { name: "Request withdrawal" }).click();
      await confirmInWallet(page, "withdraw-status");
      await page.getByTestId("withdraw-success").waitFor({ timeout: 45_000 });
      await screenshot(page, "11-requested-live");
      const panel = page.getByTestId("pending-withdrawal");
      await panel.waitFor({ timeout: 15_000 });
      await page.waitForFunction(
        () =>
          document.querySelector('[data-testid="pending-withdrawal"]')?.getAttribute("data-live") === "true",
        undefined,
        { timeout: 15_000 },
      );
      expect(claimableAnswered, "the request was claimable before the stream could tell").toBe(false);
      holding = true;
      await page.getByText("Ready to claim").waitFor({ timeout: (env.navIntervalSeconds * 3 + 30) * 1000 });
      expect(await page.getByTestId("claim-button").isEnabled()).toBe(true);
      // The poll did ask, and was not answered; no answer that said claimable reached the page.
      await waitForHeld(held);
      expect(claimableAnswered).toBe(false);
      await screenshot(page, "12-ready-from-stream");

      const events = await streamEvents(page);
      const claimable = events.find((event) => event.type === "withdrawal.claimable");
      expect(claimable, `stream events: ${events.map((event) => event.type).join(", ")}`).toBeDefined();
      const payload = JSON.parse(claimable?.data ?? "{}") as { wallet?: string; vault?: string };
      expect(payload.wallet).toBe(wallet?.address);
      expect(payload.vault).toBe(env.flexVaultId);
      expect(
        events.every(
          (event) => !event.data.includes('"wallet":"') || event.data.includes(wallet?.address ?? "?"),
        ),
      ).toBe(true);
      expect(streams[0]).toContain(`vault=${env.flexVaultId}`);
      expect(streams.some((url) => url.includes(`wallet=${wallet?.address ?? "?"}`))).toBe(true);
    } catch (error) {
      await screenshot(page, "failure-live-events");
      throw error;
    } finally {
      // The held requests go with the browser context.
      await page.unrouteAll({ behavior: "ignoreErrors" });
      await page.context().close();
    }
    expect(problems.filter((problem) => problem.startsWith("pageerror"))).toEqual([]);
  }, 300_000); // A deposit, a request and up to three NAV intervals, on a loaded machine.
});

// The vault page listening to the chain: a wallet requests a withdrawal, the page's event stream
// (GET /api/events/stream through the page session) opens, and once the keeper has staged the queue
// and struck a NAV the withdrawal is claimable, and in the same pass the keeper delivers it: the
// pending withdrawal turns "Withdrawal delivered", by the keeper's address, without a reload — while,
// once the status endpoint has shown it pending, every later status request is held unanswered, so the
// change can only have come from the stream.
import type { Browser, Page, Route } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { devRoles } from "../localnet/genesis";
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
  it("turns a pending withdrawal delivered from the stream, with the status endpoint's word held back", async () => {
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
      // withdrawal is claimable, or claimed, may reach the page.
      const isStatus = (url: URL): boolean =>
        url.pathname === `/api/vault/${env.flexVaultId}/withdraw` && url.searchParams.has("wallet");
      let holding = false;
      let claimableAnswered = false;
      let claimedAnswered = false;
      page.on("response", (response) => {
        if (!isStatus(new URL(response.url())) || response.request().method() !== "GET") {
          return;
        }
        void response
          .json()
          .then(
            (body: {
              data?: { canClaimNow?: boolean; milestones?: { claimedAt?: string | null } | null };
            }) => {
              claimableAnswered ||= body.data?.canClaimNow === true;
              claimedAnswered ||= typeof body.data?.milestones?.claimedAt === "string";
            },
          )
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
      // Claimable, then delivered by the keeper in the same pass: the card turns delivered.
      const arrived = page.getByTestId("withdrawal-arrived");
      await arrived.waitFor({ timeout: (env.navIntervalSeconds * 3 + 30) * 1000 });
      expect(await panel.count()).toBe(0);
      // The poll did ask, and was not answered; no answer that said claimable or claimed reached the page.
      await waitForHeld(held);
      expect(claimableAnswered).toBe(false);
      expect(claimedAnswered).toBe(false);
      // Who sent it is the event's word alone (the held status read would say it is the keeper).
      const keeper = devRoles().manager.publicKey.toBase58();
      expect(await page.getByTestId("withdrawal-delivered-by").innerText()).toBe(
        `${keeper.slice(0, 4)}…${keeper.slice(-4)}`,
      );
      expect((await arrived.innerText()).replace(/\s+/g, " ")).toMatch(
        /^Withdrawal delivered ?Arrived: 10\.\d\d USDC in your wallet at .+ sent the claim for you/,
      );
      await screenshot(page, "12-delivered-from-stream");

      const events = await streamEvents(page);
      const types = events.map((event) => event.type);
      const claimable = events.find((event) => event.type === "withdrawal.claimable");
      expect(claimable, `stream events: ${types.join(", ")}`).toBeDefined();
      const payload = JSON.parse(claimable?.data ?? "{}") as { wallet?: string; vault?: string };
      expect(payload.wallet).toBe(wallet?.address);
      expect(payload.vault).toBe(env.flexVaultId);
      const claimed = events.find((event) => event.type === "withdrawal.claimed");
      expect(types.indexOf("withdrawal.claimable")).toBeLessThan(types.indexOf("withdrawal.claimed"));
      expect(JSON.parse(claimed?.data ?? "{}")).toMatchObject({
        wallet: wallet?.address,
        data: { deliveredBy: keeper, net: { symbol: "USDC" } },
      });
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

// Visitors behind one address, and addresses that hold no vault. Offices, campuses and carriers put
// many people behind one IP: on a server with the production session settings, 30 fresh browsers from
// one address all see the directory (and each gets a session); on one whose issue limit is reached,
// the vault page still shows its data and says why deposits and withdrawals wait, and until when. An
// address that holds no vault answers HTTP 404.
import { copyFileSync, createWriteStream } from "node:fs";
import { join } from "node:path";

import { Keypair } from "@solana/web3.js";
import type { Browser } from "playwright";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

import { ARTIFACTS, launchChromium, openSession, screenshot } from "./support/browser";
import "./support/environment";
import { appEnv, freePort, HUNG_AFTER_MS, startApp, stop } from "./support/world";

const env = inject("e2e");
const VISITS = 30;
/** One visit's own limits: the page load, the directory and its first vault (30 s each). */
const VISIT_LIMIT_MS = 90_000;
let browser: Browser;

/** The localnet's addresses, copied now: the servers these tests start read them later. */
let addressesFile: string | null = null;

beforeAll(async () => {
  browser = await launchChromium();
  const original = env.appValues.LOCALNET_ADDRESSES_FILE;
  if (original !== undefined) {
    addressesFile = join(ARTIFACTS, "visitors-addresses.json");
    copyFileSync(original, addressesFile);
  }
});

afterAll(async () => {
  await browser.close();
});

/** The suite's app settings without the generous session limits it sets for its own many contexts. */
function productionSessionValues(overrides: Record<string, string>): Record<string, string> {
  const values = { ...env.appValues };
  for (const name of [
    "FIRST_PARTY_RPM",
    "SESSION_RPM",
    "SESSION_ISSUE_LIMIT",
    "SESSION_ISSUE_WINDOW_SECONDS",
  ]) {
    delete values[name];
  }
  return {
    ...values,
    ...(addressesFile === null ? {} : { LOCALNET_ADDRESSES_FILE: addressesFile }),
    ...overrides,
  };
}

/** Another app server on the same chain (its own store and indexer), stopped after `body`. */
async function withApp(name: string, values: Record<string, string>, body: (url: string) => Promise<void>) {
  const port = await freePort();
  const log = createWriteStream(join(ARTIFACTS, `app-${name}.log`));
  const child = await startApp(env.appMode, port, appEnv(env.appMode, values), log);
  try {
    await body(`http://localhost:${port}`);
  } finally {
    await stop(child);
    log.end();
  }
}

describe("many visitors from one address", () => {
  // Its limit is the sum of its steps' own (a server's start-up, then each visit's page load and
  // waits), so a busy machine makes it slower and a step that never happens fails with its own message.
  it(
    `${VISITS} new browsers from one address all see the directory, each with a session`,
    {
      timeout: HUNG_AFTER_MS + VISITS * VISIT_LIMIT_MS,
    },
    async () => {
      await withApp("defaults", productionSessionValues({}), async (appUrl) => {
        const seen: string[] = [];
        for (let index = 0; index < VISITS; index += 1) {
          const { context, page } = await openSession(browser, { wallet: false });
          try {
            await page.goto(`${appUrl}/`);
            // The new server's indexer fills the directory on its first pass.
            const list = page.getByTestId("vault-list");
            await list.waitFor({ timeout: 30_000 });
            await list.getByText("USDC Prime").waitFor();
            const cookies = await context.cookies(appUrl);
            seen.push(cookies.some((cookie) => cookie.name === "vg_session") ? "session" : "none");
          } finally {
            await context.close();
          }
        }
        expect(seen).toEqual(Array<string>(VISITS).fill("session"));
      });
    },
  );

  it(
    "past the issue limit, the vault page shows its data and says why and until when transactions wait",
    {
      timeout: HUNG_AFTER_MS + 3 * VISIT_LIMIT_MS,
    },
    async () => {
      await withApp("limited", productionSessionValues({ SESSION_ISSUE_LIMIT: "1" }), async (appUrl) => {
        const first = await openSession(browser, { wallet: false });
        try {
          await first.page.goto(`${appUrl}/`);
          await first.page.getByTestId("vault-list").waitFor({ timeout: 30_000 });
          expect((await first.context.cookies(appUrl)).some((cookie) => cookie.name === "vg_session")).toBe(
            true,
          );
        } finally {
          await first.context.close();
        }
        const { context, page } = await openSession(browser, { wallet: false, timezoneId: "UTC" });
        try {
          await page.goto(`${appUrl}/`);
          await page.getByTestId("vault-list").getByText("USDC Prime").waitFor({ timeout: 30_000 });
          expect((await context.cookies(appUrl)).some((cookie) => cookie.name === "vg_session")).toBe(false);
          await page.goto(`${appUrl}/vault/${env.primeVaultId}`);
          // The stats (GET …/stats, read without a session) give the TVL's depositors line.
          await page.getByText(/^\d+ depositors?$/).waitFor({ timeout: 30_000 });
          const notice = page.getByTestId("session-notice");
          await notice.waitFor();
          const text = (await notice.textContent()) ?? "";
          expect(text).toContain("Deposits and withdrawals wait for a session");
          expect(text).toContain("at most 1 new session per 10 minutes from one network address");
          expect(text).toMatch(
            /Reload after \d{1,2}:\d\d( [AP]M)? \(in \d+ (s|min)\) to deposit or withdraw/,
          );
          await screenshot(page, "visitors-session-limited");
        } finally {
          await context.close();
        }
      });
    },
  );
});

describe("addresses that hold no vault", () => {
  it("answer 404, on the site and in the embed, while a vault answers 200", async () => {
    const nobody = Keypair.generate().publicKey.toBase58();
    const statuses: Record<string, number> = {};
    for (const path of [
      `/vault/${nobody}`,
      "/vault/not-an-address",
      `/embed/vault/${nobody}`,
      `/vault/${env.primeVaultId}`,
    ]) {
      const response = await fetch(`${env.appUrl}${path}`);
      const html = await response.text();
      statuses[path] = response.status;
      if (response.status === 404) {
        // The address and the network it was looked up on, not a bare "Page not found".
        expect(html, path).toContain("No vault at this address");
        expect(html, path).toContain(decodeURIComponent(path.split("/").at(-1) ?? ""));
        expect(html, path).toContain("localnet, the local test chain");
      }
    }
    expect(statuses).toEqual({
      [`/vault/${nobody}`]: 404,
      "/vault/not-an-address": 404,
      [`/embed/vault/${nobody}`]: 404,
      [`/vault/${env.primeVaultId}`]: 200,
    });
  });
});

// Debian's Chromium driven by Playwright (no downloaded browsers), a context per test with the test
// wallet injected, and screenshots saved under e2e/artifacts/.
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium, type Browser, type BrowserContext, type Frame, type Page } from "playwright";
import { afterAll, beforeAll } from "vitest";

import { TestWallet } from "./test-wallet";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CHROMIUM = "/usr/bin/chromium";
export const ARTIFACTS = join(REPO_ROOT, "e2e/artifacts");

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * One Chromium for the test file: launched before its tests, closed after them. Call at the top level
 * of the file; the function it returns gives the browser inside a test.
 */
export function browserPerFile(): () => Browser {
  let browser: Browser | null = null;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === null) {
      throw new Error("the file's browser is not launched yet (call browserPerFile at the top level)");
    }
    return browser;
  };
}

/** A test id's text with runs of white space made one space, as a person reads it. */
export async function textOf(page: Page, testId: string): Promise<string> {
  return (await page.getByTestId(testId).first().innerText()).replace(/\s+/g, " ");
}

export interface WalletSession {
  context: BrowserContext;
  page: Page;
  wallet: TestWallet | null;
  /** Console errors and page errors seen, for assertions and for debugging a failure. */
  problems: string[];
}

export async function openSession(
  browser: Browser,
  options: {
    wallet?: boolean;
    viewport?: { width: number; height: number };
    timezoneId?: string;
    /** The browser's language and number format, e.g. "de-DE" (Chromium's default is en-US). */
    locale?: string;
  } = {},
): Promise<WalletSession> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    timezoneId: options.timezoneId,
    locale: options.locale,
  });
  const wallet = options.wallet === false ? null : new TestWallet();
  if (wallet !== null) {
    await wallet.install(context);
  }
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") {
      problems.push(`console: ${message.text()}`);
    }
  });
  return { context, page, wallet, problems };
}

/**
 * A PNG of the page in e2e/artifacts. `fullPage: false` for pages with a cross-origin iframe: resizing
 * the viewport to the full page leaves an out-of-process frame unpainted in the capture.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}

/**
 * The step before the wallet of a form's transaction (its TransactionStatus test id): after the check
 * and the simulation the page shows the balance changes and "Continue to wallet", which alone opens
 * the wallet, whose approval is the one confirmation.
 */
export async function confirmInWallet(scope: Page | Frame, statusTestId: string): Promise<void> {
  await scope.getByTestId(`${statusTestId}-confirm`).click({ timeout: 45_000 });
}

/** Opens the wallet dialog (the first "Connect wallet" button on the page) and picks the test wallet. */
export async function connectWallet(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Connect wallet" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Connect a wallet" });
  await dialog.getByRole("button", { name: /E2E Test Wallet/ }).click();
  await page.getByTestId("wallet-address").first().waitFor({ timeout: 15_000 });
}

/** The partner page's iframe of the embed (e2e/support/global-setup.ts partnerSite: `iframe#vault`). */
export async function vaultFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector("iframe#vault");
  const frame = await handle.contentFrame();
  if (frame === null) {
    throw new Error("The iframe has no frame");
  }
  return frame;
}

/**
 * The end of the vault page's pending withdrawal now that the local keeper delivers claimable
 * withdrawals, in the very pass that makes them claimable: the owner claims when the page offers the
 * claim first; when the keeper's claim lands first (before the click, or before the owner's own claim
 * is signed), the card turns "Withdrawal delivered". Waits for one state or the other, never for a
 * time, and answers which it was.
 */
export async function claimOrSeeDelivered(page: Page, timeoutMs: number): Promise<"claimed" | "delivered"> {
  const claim = page.getByTestId("claim-button").and(page.locator(":enabled"));
  const arrived = page.getByTestId("withdrawal-arrived");
  await claim.or(arrived).first().waitFor({ timeout: timeoutMs });
  if ((await arrived.count()) > 0) {
    return "delivered";
  }
  // The card may go between the look and the click: then the delivery is what follows.
  await claim.click({ timeout: 5_000 }).catch(() => undefined);
  const confirm = page.getByTestId("claim-status-confirm");
  await confirm.or(arrived).first().waitFor({ timeout: 45_000 });
  if ((await arrived.count()) > 0) {
    return "delivered";
  }
  await confirm.click({ timeout: 5_000 }).catch(() => undefined);
  const success = page.getByTestId("claim-success");
  await success.or(arrived).first().waitFor({ timeout: 45_000 });
  return (await success.count()) > 0 ? "claimed" : "delivered";
}

// A phone (390 × 844): the header is two short rows, the TVL tile shows a whole figure (shortened, the
// full value a tap away) instead of a cut one, and Deposit / Withdraw stay on screen while scrolling.
import { expect, inject, it } from "vitest";

import { browserPerFile, connectWallet, openSession, screenshot } from "./support/browser";
import { USDC, fundFromFaucet } from "./support/chain";
import "./support/environment";

const env = inject("e2e");
const browser = browserPerFile();

it("fits a phone: compact header, whole figures, a sticky deposit and withdraw bar", async () => {
  const session = await openSession(browser(), { viewport: { width: 390, height: 844 } });
  const { page, problems } = session;
  try {
    await fundFromFaucet(env.faucetUrl, env.rpcUrl, session.wallet?.address ?? "", 100n * USDC);
    await page.goto(`${env.appUrl}/vault/${env.primeVaultId}`);
    await page.getByTestId("vault-name").waitFor();
    await connectWallet(page);
    await page.getByText("Balance: 100.00 USDC").waitFor({ timeout: 30_000 });

    const header = await page.locator("header").first().boundingBox();
    expect(header?.height ?? 0).toBeLessThan(110);

    // No stat tile is cut: each value's text fits its box.
    const cut = await page.$$eval("dl dd.truncate", (cells) =>
      cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent),
    );
    expect(cut).toEqual([]);

    // The bar stays in view at the bottom wherever the page is scrolled away from the forms, and
    // opens the chosen form.
    const bar = page.getByTestId("mobile-action-bar");
    await page.mouse.wheel(0, 2_000);
    await bar.waitFor();
    const box = await bar.boundingBox();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(844 + 1);
    expect(box?.y ?? 0).toBeGreaterThan(700);
    await bar.getByRole("button", { name: "Withdraw" }).click();
    expect(await page.getByRole("tab", { name: "withdraw" }).getAttribute("aria-selected")).toBe("true");
    await page.getByLabel("Shares to withdraw").waitFor();
    await page.mouse.wheel(0, 2_000);
    await bar.getByRole("button", { name: "Deposit" }).click();
    expect(await page.getByRole("tab", { name: "deposit" }).getAttribute("aria-selected")).toBe("true");
    await page.getByLabel("Amount to deposit").waitFor();
    await screenshot(page, "mobile-vault", { fullPage: false });
    expect(problems.filter((problem) => problem.startsWith("pageerror"))).toEqual([]);
  } catch (error) {
    await screenshot(page, "failure-mobile", { fullPage: false });
    throw error;
  } finally {
    await session.context.close();
  }
});

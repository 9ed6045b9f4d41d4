// A holder-hurting change the manager announces waits out the vault's notice (72 h on the local chain)
// and the vault page says so, with the time it applies, while today's terms stay in force.
import { PublicKey } from "@solana/web3.js";
import { describe, expect, inject, it } from "vitest";

import { ChainClient } from "../lib/operator/chain-client";
import { buildUpdateConfigInstruction } from "../lib/vault/program/instructions";
import { devRoles } from "../localnet/genesis";
import { browserPerFile, openSession, screenshot, textOf } from "./support/browser";
import "./support/environment";

const env = inject("e2e");
const browser = browserPerFile();

describe("an announced fee raise", () => {
  it("is shown on the vault page with its time, the current fee still in force", async () => {
    const { manager } = devRoles();
    const vault = new PublicKey(env.flexVaultId);
    const sent = Date.now();
    await new ChainClient(env.rpcUrl).sendAndConfirm(
      "update_config: fee 0 → 50 bps",
      [buildUpdateConfigInstruction({ manager: manager.publicKey, vault }, { feeBps: 50 })],
      manager,
    );
    const { page, problems } = await openSession(browser());
    try {
      await page.goto(`${env.appUrl}/vault/${env.flexVaultId}`);
      const time = page.getByTestId("scheduled-config").locator("time");
      await time.waitFor({ timeout: 30_000 });
      await page.waitForFunction(
        () => (document.querySelector('[data-testid="scheduled-config"] time')?.textContent ?? "") !== "",
      );
      // The vault's notice on the local chain is 72 h from the update.
      const effectiveAt = Date.parse((await time.getAttribute("datetime")) ?? "");
      expect(Math.abs(effectiveAt - (sent + 72 * 3_600_000))).toBeLessThan(10 * 60_000);
      const notice = await textOf(page, "scheduled-config");
      expect(notice).toMatch(
        /^Announced change from .+: fee 0\.00% → 0\.50%\. Requests made before then keep today's terms\.$/,
      );
      expect(await page.getByText("Fee 0.00%", { exact: false }).count()).toBeGreaterThanOrEqual(1);
      await screenshot(page, "22-announced-change");
    } catch (error) {
      await screenshot(page, "failure-announced-change");
      throw error;
    }
    expect(problems.filter((problem) => problem.startsWith("pageerror"))).toEqual([]);
  });
});

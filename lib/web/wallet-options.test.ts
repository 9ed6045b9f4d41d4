import { describe, expect, it } from "vitest";

import { reachableInFrame } from "./wallet-options";

describe("a wallet inside a partner's frame", () => {
  it("is an installed extension or the built-in dev wallet; a wallet to install or open elsewhere is not", () => {
    expect(reachableInFrame([{ readyState: "Installed", builtIn: false }])).toBe(true);
    // The local chain's dev wallet is Loadable (nothing installed) yet works in the frame.
    expect(reachableInFrame([{ readyState: "Loadable", builtIn: true }])).toBe(true);
    expect(
      reachableInFrame([
        { readyState: "Loadable", builtIn: false },
        { readyState: "NotDetected", builtIn: false },
      ]),
    ).toBe(false);
    expect(reachableInFrame([])).toBe(false);
  });
});

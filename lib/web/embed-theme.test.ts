import { describe, expect, it } from "vitest";

import { parseAccent, parseEmbedTheme } from "./embed-theme";

describe("the embed's theme from its query string", () => {
  it("takes light or dark and a hex accent, with a readable foreground", () => {
    expect(parseEmbedTheme({ theme: "dark", accent: "#ea580c" })).toEqual({
      theme: "dark",
      accent: "#ea580c",
      accentForeground: "#000000",
    });
    expect(parseEmbedTheme({ theme: "light", accent: "1e3a8a" }).accentForeground).toBe("#ffffff");
    expect(parseAccent("#F60")).toBe("#ff6600");
  });

  it("ignores anything else, so nothing can be injected into styles", () => {
    expect(parseEmbedTheme({ theme: "blue", accent: "red;background:url(x)" })).toEqual({
      theme: null,
      accent: null,
      accentForeground: null,
    });
    expect(parseEmbedTheme({ theme: ["dark", "light"], accent: ["#000", "#fff"] }).theme).toBe("dark");
    expect(parseAccent("#12345")).toBeNull();
  });
});

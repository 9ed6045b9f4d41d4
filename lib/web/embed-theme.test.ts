import { describe, expect, it } from "vitest";

import {
  MIN_TEXT_CONTRAST,
  THEME_BACKGROUNDS,
  contrast,
  parseAccent,
  parseEmbedTheme,
  readableOn,
} from "./embed-theme";

describe("the embed's theme from its query string", () => {
  it("takes light or dark and a hex accent, with a readable foreground", () => {
    expect(parseEmbedTheme({ theme: "dark", accent: "#ea580c" })).toMatchObject({
      theme: "dark",
      accent: "#ea580c",
      accentForeground: "#000000",
      transparent: false,
    });
    expect(parseEmbedTheme({ theme: "light", accent: "1e3a8a" }).accentForeground).toBe("#ffffff");
    expect(parseAccent("#F60")).toBe("#ff6600");
  });

  it("ignores anything else, so nothing can be injected into styles", () => {
    expect(parseEmbedTheme({ theme: "blue", accent: "red;background:url(x)", background: "red" })).toEqual({
      theme: null,
      accent: null,
      accentForeground: null,
      accentText: null,
      transparent: false,
    });
    expect(parseEmbedTheme({ theme: ["dark", "light"], accent: ["#000", "#fff"] }).theme).toBe("dark");
    expect(parseAccent("#12345")).toBeNull();
  });

  it("paints no background of its own when asked", () => {
    expect(parseEmbedTheme({ background: "transparent" }).transparent).toBe(true);
  });
});

describe("the accent as link text", () => {
  it("measures contrast as WCAG does", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#ffff00", "#ffffff")).toBeCloseTo(1.07, 2);
  });

  // Yellow links read at 1.42:1 on the light page (axe's measure); every accent is made readable on
  // every background of both themes, and one that already reads well is kept as it is.
  it.each(["#ffff00", "#facc15", "#ea580c", "#22c55e", "#0000ff", "#111111", "#ffffff"])(
    "makes %s readable at 4.5:1 on the light and dark backgrounds",
    (accent) => {
      const text = parseEmbedTheme({ accent }).accentText;
      for (const background of THEME_BACKGROUNDS.light) {
        expect(contrast(text?.light ?? "", background)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      }
      for (const background of THEME_BACKGROUNDS.dark) {
        expect(contrast(text?.dark ?? "", background)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
      }
    },
  );

  it("keeps an accent that already reads well", () => {
    expect(readableOn("#1e3a8a", THEME_BACKGROUNDS.light, "#000000")).toBe("#1e3a8a");
    expect(readableOn("#ffff00", THEME_BACKGROUNDS.dark, "#ffffff")).toBe("#ffff00");
  });
});

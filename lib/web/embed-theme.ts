// The embed's look from its query string: ?theme=light|dark&accent=<hex>&background=transparent.
// Anything else is ignored (the reader's own light/dark preference and the default accent apply), so
// nothing a partner passes can inject styles. An accent too faint to read as link text on the theme's
// backgrounds (yellow on white was 1.42:1) is darkened (light) or lightened (dark) to WCAG AA's 4.5:1
// for text; buttons keep the accent itself, with black or white on it.

export interface EmbedTheme {
  /** Null: follow the reader's system preference. */
  theme: "light" | "dark" | null;
  /** "#rrggbb", or null for the default. */
  accent: string | null;
  /** Black or white, whichever reads better on the accent. */
  accentForeground: string | null;
  /** The accent as link text on the light and the dark theme's backgrounds, at 4.5:1 or more. */
  accentText: { light: string; dark: string } | null;
  /** The host page shows through (the iframe's own background is not painted). */
  transparent: boolean;
}

/** The backgrounds text is read on in each theme (page, card, soft; app/globals.css). */
export const THEME_BACKGROUNDS = {
  light: ["#f6f7f9", "#ffffff", "#eef1f6"],
  dark: ["#0b0f17", "#131a26", "#1b2433"],
} as const;

/** WCAG AA for normal text. */
export const MIN_TEXT_CONTRAST = 4.5;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** "#f60", "ff6600" or "#FF6600" → "#ff6600"; null for anything else. */
export function parseAccent(value: string | undefined): string | null {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value?.trim() ?? "");
  if (match?.[1] === undefined) {
    return null;
  }
  const hex = match[1].toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((digit) => digit + digit).join("") : hex}`;
}

function channel(hex: string, offset: number): number {
  const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
  return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of "#rrggbb". */
export function luminance(hex: string): number {
  return 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);
}

/** WCAG contrast ratio of two "#rrggbb" colours. */
export function contrast(first: string, second: string): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

function mix(hex: string, toward: string, amount: number): string {
  const part = (color: string, offset: number) => Number.parseInt(color.slice(offset, offset + 2), 16);
  return `#${[1, 3, 5]
    .map((offset) => Math.round(part(hex, offset) + (part(toward, offset) - part(hex, offset)) * amount))
    .map((value) => value.toString(16).padStart(2, "0"))
    .join("")}`;
}

/**
 * The accent moved toward black (on light backgrounds) or white (on dark ones) in 5% steps until it
 * reads at MIN_TEXT_CONTRAST on every background given; the accent itself when it already does.
 */
export function readableOn(accent: string, backgrounds: readonly string[], toward: "#000000" | "#ffffff") {
  for (let step = 0; step <= 20; step += 1) {
    const color = mix(accent, toward, step / 20);
    if (backgrounds.every((background) => contrast(color, background) >= MIN_TEXT_CONTRAST)) {
      return color;
    }
  }
  return toward;
}

export function parseEmbedTheme(query: Record<string, string | string[] | undefined>): EmbedTheme {
  const themeValue = first(query.theme);
  const theme = themeValue === "light" || themeValue === "dark" ? themeValue : null;
  const accent = parseAccent(first(query.accent));
  // Contrast with white is (1.05)/(L+0.05), with black (L+0.05)/0.05: pick the larger.
  const accentForeground =
    accent === null
      ? null
      : 1.05 / (luminance(accent) + 0.05) >= (luminance(accent) + 0.05) / 0.05
        ? "#ffffff"
        : "#000000";
  const accentText =
    accent === null
      ? null
      : {
          light: readableOn(accent, THEME_BACKGROUNDS.light, "#000000"),
          dark: readableOn(accent, THEME_BACKGROUNDS.dark, "#ffffff"),
        };
  return {
    theme,
    accent,
    accentForeground,
    accentText,
    transparent: first(query.background) === "transparent",
  };
}

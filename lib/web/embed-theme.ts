// The embed's look from its query string: ?theme=light|dark&accent=<hex>. Anything else is ignored
// (the reader's own light/dark preference and the default accent apply), so nothing a partner passes
// can inject styles.

export interface EmbedTheme {
  /** Null: follow the reader's system preference. */
  theme: "light" | "dark" | null;
  /** "#rrggbb", or null for the default. */
  accent: string | null;
  /** Black or white, whichever reads better on the accent. */
  accentForeground: string | null;
}

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
  return { theme, accent, accentForeground };
}

// The reader's locale, from the browser's Accept-Language (the same preference navigator.language
// reports), so the server renders figures the way the browser will and the way input is read.

export const FALLBACK_LOCALE = "en-US";

/**
 * The first language in an Accept-Language header that this runtime can format ("de-DE,de;q=0.9" →
 * "de-DE"), by quality then order; en-US when none is given or none is known.
 */
export function readerLocaleFrom(acceptLanguage: string | null): string {
  if (acceptLanguage === null) {
    return FALLBACK_LOCALE;
  }
  const ranked = acceptLanguage
    .split(",")
    .map((entry, index) => {
      const [tag = "", ...parameters] = entry.trim().split(";");
      const quality = parameters
        .map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1])
        .find((value) => value !== undefined);
      return { tag: tag.trim(), quality: quality === undefined ? 1 : Number(quality), index };
    })
    .filter(({ tag, quality }) => tag !== "" && tag !== "*" && Number.isFinite(quality) && quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    try {
      const [supported] = Intl.NumberFormat.supportedLocalesOf([tag]);
      if (supported !== undefined) {
        return supported;
      }
    } catch {
      // A malformed tag is skipped like an unknown one.
    }
  }
  return FALLBACK_LOCALE;
}

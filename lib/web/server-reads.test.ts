import { describe, expect, it } from "vitest";

import { lastPathSegment } from "./server-reads";

describe("the address a not-found page names", () => {
  it("is its path's last segment, decoded, whatever the path's shape", () => {
    expect(lastPathSegment("/vault/3GAawFCq95RLaDTN1Q7XbUvFQnC6UBhahpxhC1nBmCcd")).toBe(
      "3GAawFCq95RLaDTN1Q7XbUvFQnC6UBhahpxhC1nBmCcd",
    );
    expect(lastPathSegment("/embed/vault/not%20an%20address/")).toBe("not an address");
    expect(lastPathSegment("/vault/%E0%A4%A")).toBe("%E0%A4%A");
    expect(lastPathSegment(null)).toBe("");
  });
});

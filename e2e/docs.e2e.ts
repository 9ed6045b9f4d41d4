// The rendered API reference: GET /api/docs draws every operation of /api/openapi.json with Swagger UI
// served by this server, under its own CSP, with nothing fetched from another origin.
import { expect, inject, it } from "vitest";

import { browserPerFile, openSession, screenshot } from "./support/browser";
import "./support/environment";

const env = inject("e2e");
const browser = browserPerFile();

it("renders the API reference from the OpenAPI document, loading only this origin", async () => {
  const session = await openSession(browser(), { wallet: false });
  const { page, problems } = session;
  const origins = new Set<string>();
  page.on("request", (request) => origins.add(new URL(request.url()).origin));
  try {
    await page.goto(`${env.appUrl}/api/docs`);
    await page.getByText("Vault transaction-building and public oracle service").first().waitFor();
    await page.getByText("/api/vault/{vault_id}/deposit").first().waitFor();
    await page.getByText("/api/circulating-supply").first().waitFor();
    await screenshot(page, "api-reference");
    expect([...origins]).toEqual([new URL(env.appUrl).origin]);
    // A CSP refusal shows as a console error.
    expect(problems).toEqual([]);
  } catch (error) {
    await screenshot(page, "failure-api-reference");
    throw error;
  } finally {
    await session.context.close();
  }
});

// Whether a local chain answers: its getHealth says "ok" within a second. For whoever starts one as a
// child process and waits for it (npm run dev, the browser tests' world).
export async function isLocalnetHealthy(rpcUrl: string): Promise<boolean> {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getHealth" }),
      signal: AbortSignal.timeout(1_000),
    });
    const body: unknown = await response.json();
    return typeof body === "object" && body !== null && "result" in body && body.result === "ok";
  } catch {
    return false;
  }
}

// The app's side of the embedded-database race tests, in a process of its own: it owns the PGlite
// directory OWNER_PGLITE_DIR (as `npm run dev` does), says "ready" once it serves it, and with
// OWNER_WRITES=1 creates API keys one after another, printing each secret only once it is committed,
// until it is stopped (SIGTERM closes the store; SIGKILL is the crash under test).
import { Store } from "../../lib/store/store";

const directory = process.env.OWNER_PGLITE_DIR;
if (directory === undefined) {
  throw new Error("OWNER_PGLITE_DIR is not set");
}
const store = new Store({ databaseUrl: null, pgliteDir: directory, timeoutMs: 10_000 });
await store.ready();
console.log("ready");

let stopping = false;
process.once("SIGTERM", () => {
  stopping = true;
  void store.close().then(() => process.exit(0));
});

if (process.env.OWNER_WRITES === "1") {
  for (let index = 0; !stopping; index += 1) {
    const { secret } = await store.keys.create({
      name: `owner-${index}`,
      scope: "read",
      vaults: null,
      wallet: null,
      rpm: 60,
      environment: "test",
    });
    console.log(`key ${secret}`);
  }
} else {
  setInterval(() => undefined, 60_000);
}

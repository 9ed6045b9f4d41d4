// npm start / npm run dev's app: scripts/web-server.ts (the API's router before Next.js, one node:http
// server) with the context and the indexer built here from the environment.
// Usage: tsx scripts/web.ts [--dev] [--port N] [--hostname H]; defaults: PORT, HOST (lib/config.ts).
// It prints "web: ready …" once it serves: the port was free, the store is open, the directory lists
// the chain's vaults and (--dev) the directory page is compiled, a vault's page compiling beside it
// (saying which meanwhile and when each is done); `npm run dev` waits for that line.
import { exitOnCommandLineError, integerFlag, parseCommandLine } from "../lib/cli/args";
import { createApiContext, openStoreAtBoot, type ApiContext } from "../lib/api/context";
import { indexedVaults } from "../lib/api/vaults/indexed-reads";
import { ConfigError, checkProcessConfig, processConfig } from "../lib/config";
import { assertPortsFree, portInUseMessage, type PlannedPort } from "../lib/server/port-check";
import { Progress } from "../lib/server/progress";
import { describeEmbedFraming } from "../lib/web-config";
import { startWebServer, type WebServer } from "./web-server";

const DIRECTORY_REPORT_MS = 30_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The directory's vaults, once it can be read (the chain may be slow to answer); says why meanwhile. */
async function directoryVaults(context: ApiContext): Promise<string[]> {
  let lastSaid = 0;
  for (;;) {
    try {
      return (await indexedVaults(context)).map((entry) => entry.row.vault);
    } catch (error) {
      if (Date.now() - lastSaid >= DIRECTORY_REPORT_MS) {
        lastSaid = Date.now();
        console.log(`web: waiting for the vault directory: ${errorText(error)}`);
      }
      await sleep(1_000);
    }
  }
}

/** Requests a page from this server (the dev server compiles it on its first request) and says how long it took. */
async function warmPage(web: WebServer, path: string, progress: Progress): Promise<void> {
  const started = performance.now();
  const done = progress.begin(path);
  try {
    const response = await fetch(new URL(path, web.url), { signal: AbortSignal.timeout(300_000) });
    await response.arrayBuffer();
    console.log(
      `web: compiled ${path} (${response.status}) in ${Math.round(performance.now() - started)} ms`,
    );
  } catch (error) {
    console.log(`web: ${path} did not answer while warming up: ${errorText(error)}`);
  } finally {
    done();
  }
}

/**
 * The pages a person opens first, requested from this server so that the dev server compiles them now
 * rather than on that person's first visit: the directory (`/`) and, as soon as the directory names a
 * vault, that vault's page, both compiling together; meanwhile it says every few seconds which pages
 * are compiling and for how long. Resolves once `/` is compiled, where a person lands; the vault's page
 * goes on compiling after that and says when it is done (warmPage never rejects).
 */
function warmPages(web: WebServer, vaults: Promise<readonly string[]>): Promise<void> {
  const progress = new Progress((pending) => console.log(`web: compiling ${pending}`));
  void vaults.then((listed) =>
    listed[0] === undefined ? undefined : warmPage(web, `/vault/${listed[0]}`, progress),
  );
  return warmPage(web, "/", progress);
}

const WEB_USAGE = "Usage: npm start -- [--port <0-65535>] [--hostname <host>] [--dev]";

async function main(): Promise<void> {
  const { values } = parseCommandLine(process.argv.slice(2), {
    dev: { type: "boolean", default: false },
    port: { type: "string" },
    hostname: { type: "string" },
  });
  const portFlag = integerFlag("--port", values.port, { min: 0, max: 65_535 });
  if (process.env.NODE_ENV === undefined) {
    // As `next start` and `next dev` do; React and Next.js pick their builds by it.
    Object.assign(process.env, { NODE_ENV: values.dev ? "development" : "production" });
  }
  // The process's configuration, every slice checked before anything listens (instrumentation.ts, in
  // this same process, reads the same parsed copy).
  const all = checkProcessConfig(processConfig());
  const config = all.api;
  const hostname = values.hostname ?? config.host;
  const port = portFlag ?? config.port;
  const planned: PlannedPort = {
    host: hostname,
    port,
    setting: values.port === undefined ? "PORT" : "--port",
  };
  await assertPortsFree([planned]);
  // The log says who may frame the embed.
  const embedFraming = describeEmbedFraming(all.web);
  // The indexer starts in instrumentation.ts (as under a bare `next start`), on this same context. The
  // store opens while Next.js prepares (instrumentation.ts waits for the same opening).
  const context = createApiContext(config);
  const [, web] = await Promise.all([
    openStoreAtBoot(context),
    startWebServer({
      dev: values.dev,
      hostname,
      port,
      context,
      metricsToken: all.metricsToken,
    }).catch((error: unknown) => {
      // Taken between the check and the listen.
      if (error instanceof Error && "code" in error && error.code === "EADDRINUSE") {
        throw new ConfigError(portInUseMessage(planned));
      }
      throw error;
    }),
  ]);
  console.log(`web: ${values.dev ? "dev" : "production"} server on ${web.url}`);
  console.log(embedFraming);
  let stopping = false;
  const stop = (): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    web
      .close()
      .then(() => context.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  const listing = directoryVaults(context);
  if (values.dev) {
    // Ready once `/` is compiled; a vault's page finishes compiling in the background.
    await warmPages(web, listing);
  }
  const vaults = await listing;
  console.log(
    `web: ready on ${web.url}; the store is open (${context.store.kind}), the directory lists ${vaults.length} vault(s)`,
  );
}

main().catch((error: unknown) => {
  exitOnCommandLineError("web", WEB_USAGE, error);
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

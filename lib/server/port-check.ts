// Whether the ports a command is about to listen on are free, checked before it starts anything, so a
// port another program holds is named with the setting that moves it instead of surfacing later as a
// raw EADDRINUSE stack (after "everything is up" had been printed for somebody else's server).
import { createServer } from "node:net";

import { ConfigError } from "../env-schema";

export interface PlannedPort {
  host: string;
  port: number;
  /** The variable or flag that sets it, named in the message (APP_PORT, PORT, --rpc-port …). */
  setting: string;
}

function errorCode(error: unknown): string {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : "";
}

/** True when nothing else listens on host:port (port 0, any free port, always is). */
export function isPortFree(host: string, port: number): Promise<boolean> {
  if (port === 0) {
    return Promise.resolve(true);
  }
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error) => {
      if (errorCode(error) === "EADDRINUSE" || errorCode(error) === "EACCES") {
        resolve(false);
      } else {
        reject(error);
      }
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** The message for a port another program holds. */
export function portInUseMessage({ host, port, setting }: PlannedPort): string {
  return `Port ${port} on ${host} is already in use by another program; stop it, or set ${setting} to a free port`;
}

/** Throws ConfigError naming every planned port that is taken, and the setting that moves it. */
export async function assertPortsFree(ports: readonly PlannedPort[]): Promise<void> {
  const taken: PlannedPort[] = [];
  for (const planned of ports) {
    if (!(await isPortFree(planned.host, planned.port))) {
      taken.push(planned);
    }
  }
  if (taken.length > 0) {
    throw new ConfigError(taken.map(portInUseMessage).join("\n"));
  }
}

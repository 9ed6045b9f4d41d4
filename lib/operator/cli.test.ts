// The operator commands (protocol, vault, sign) refuse a wrong command line before touching the chain:
// an unknown flag, a missing value or an unknown command is a UsageError, which runCommand prints with
// the command's usage and exit code 2; --help asks for the usage.
import { describe, expect, it } from "vitest";

import { HelpRequested, UsageError } from "../cli/args";
import { runProtocolCli } from "./protocol-cli";
import { runSignCli } from "./sign-cli";
import { runVaultCli } from "./vault-cli";

const out = (): void => {};
const noStdin = (): Promise<string> =>
  Promise.reject(new Error("stdin is not read for a wrong command line"));
// Nothing listens here: a command that got past its flags would fail with the chain unreachable.
const PROTOCOL_COMMANDS =
  " (init, show, set-bounds, set-admin, accept-admin, pause-vault, set-max-partner-fee)";
const VAULT_COMMANDS = " (create, show, config, pause, resume, set-manager, accept-manager, stage)";
const URL = ["--url", "http://127.0.0.1:1"];

describe("protocol", () => {
  it.each([
    [["set-bounds", "--max-gain-bpz", "20"], "Unknown option '--max-gain-bpz'"],
    [["init", "--keypair"], "Option '--keypair <value>' argument missing"],
    [["--bogus"], `unknown command "--bogus"${PROTOCOL_COMMANDS}`],
    [["frobnicate"], `unknown command "frobnicate"${PROTOCOL_COMMANDS}`],
  ])("refuses %j", async (argv, reason) => {
    await expect(runProtocolCli([...argv.slice(0, 1), ...URL, ...argv.slice(1)], out)).rejects.toThrow(
      new UsageError(reason),
    );
  });

  it("asks for the usage on a command's --help", async () => {
    await expect(runProtocolCli(["set-bounds", "--help"], out)).rejects.toBeInstanceOf(HelpRequested);
  });
});

describe("vault", () => {
  it.each([
    [["create", "--bogus", "1"], "Unknown option '--bogus'"],
    [
      ["config", "11111111111111111111111111111111", "--hourly-cap"],
      "Option '--hourly-cap <value>' argument missing",
    ],
    [["--bogus"], `unknown command "--bogus"${VAULT_COMMANDS}`],
  ])("refuses %j", async (argv, reason) => {
    await expect(runVaultCli([...argv.slice(0, 1), ...URL, ...argv.slice(1)], out)).rejects.toThrow(
      new UsageError(reason),
    );
  });

  it("asks for the usage on a command's --help", async () => {
    await expect(runVaultCli(["show", "-h"], out)).rejects.toBeInstanceOf(HelpRequested);
  });
});

describe("sign", () => {
  it.each([
    [["--keypair", "k.json", "--vault", "v", "--claim", "--max-price", "5"], "Unknown option '--max-price'"],
    [["--keypair"], "Option '--keypair <value>' argument missing"],
    [["--claim=yes"], "Option '--claim' does not take an argument"],
  ])("refuses %j", async (argv, reason) => {
    await expect(runSignCli([...URL, ...argv], noStdin, out, {})).rejects.toThrow(new UsageError(reason));
  });
});

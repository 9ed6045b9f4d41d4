// How every command line is read: node:util parseArgs in strict mode, so an unknown flag, a missing
// value or a stray argument is a UsageError, never ignored; numbers checked as integers in a range;
// --help (or -h) asks for the usage. The runner of each script turns these into one exit path:
// `<command>: <reason>`, a blank line and the command's usage on stderr with exit code 2, or the usage
// on stdout and exit code 0 for --help.
import { parseArgs, type ParseArgsConfig } from "node:util";

export type OptionsSpec = NonNullable<ParseArgsConfig["options"]>;

/** The command line is wrong: the reason is one line; the runner adds the command's usage. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** --help or -h was given: the runner prints the usage and exits 0. */
export class HelpRequested extends Error {
  override readonly name = "HelpRequested";
  constructor() {
    super("help requested");
  }
}

export interface ParseOptions {
  /** How many positional arguments the command takes (default none). */
  maxPositionals?: number;
}

function helpAsked(argv: readonly string[]): boolean {
  for (const argument of argv) {
    if (argument === "--") {
      return false;
    }
    if (argument === "--help" || argument === "-h") {
      return true;
    }
  }
  return false;
}

/** Strict flags: an unknown one, a missing value or too many positionals throws UsageError. */
export function parseCommandLine<const O extends OptionsSpec>(
  argv: readonly string[],
  options: O,
  { maxPositionals = 0 }: ParseOptions = {},
): {
  values: ReturnType<
    typeof parseArgs<{ options: O; args: string[]; allowPositionals: true; strict: true }>
  >["values"];
  positionals: string[];
} {
  if (helpAsked(argv)) {
    throw new HelpRequested();
  }
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs's messages name the flag; their first sentence is the reason.
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.split(/\.\s|\n/, 1)[0] ?? "bad arguments");
  }
  const extra = parsed.positionals[maxPositionals];
  if (extra !== undefined) {
    throw new UsageError(`unexpected argument '${extra}'`);
  }
  return { values: parsed.values, positionals: parsed.positionals };
}

/** An integer flag's value in [min, max]; undefined gives the fallback. */
export function integerFlag(
  flag: string,
  text: string | undefined,
  range: { min: number; max: number },
  fallback: number,
): number;
export function integerFlag(
  flag: string,
  text: string | undefined,
  range: { min: number; max: number },
): number | undefined;
export function integerFlag(
  flag: string,
  text: string | undefined,
  { min, max }: { min: number; max: number },
  fallback?: number,
): number | undefined {
  if (text === undefined) {
    return fallback;
  }
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}; got "${text}"`);
  }
  return value;
}

/** The text a refused command line prints on stderr. */
export function usageErrorText(command: string, reason: string, usage: string): string {
  return `${command}: ${reason}\n\n${usage}`;
}

/**
 * Handles a HelpRequested or UsageError (usage on stdout and exit 0, or the reason and usage on stderr
 * and exit 2); returns false for anything else, which the caller reports as before.
 */
export function exitOnCommandLineError(command: string, usage: string, error: unknown): boolean {
  if (error instanceof HelpRequested) {
    console.log(usage);
    process.exit(0);
  }
  if (error instanceof UsageError) {
    console.error(usageErrorText(command, error.message, usage));
    process.exit(2);
  }
  return false;
}

/** Parses now, exiting as exitOnCommandLineError does when the command line is wrong or asks for help. */
export function parseCommandLineOrExit<const O extends OptionsSpec>(
  command: string,
  usage: string,
  argv: readonly string[],
  options: O,
  parseOptions: ParseOptions = {},
): ReturnType<typeof parseCommandLine<O>> {
  try {
    return parseCommandLine(argv, options, parseOptions);
  } catch (error) {
    exitOnCommandLineError(command, usage, error);
    throw error;
  }
}

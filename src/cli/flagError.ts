import type { Command } from "commander";
import { TOKEN_ENV_VARS } from "../config/tokenVariables.js";

/**
 * What a refused command line says beyond commander's own error: where the token goes when someone
 * tries to pass it as a flag, and which help lists the flags (also in the --json line's hint).
 */

/** An unknown flag that looks like a way to pass the token: `--token`, `--api-token`, `--api-key`. */
const TOKEN_LIKE_FLAG = /unknown option '--[\w-]*(?:token|key)[\w-]*'/i;

/** Commander's error with, for a token-like unknown flag, the variable the token is read from. */
export function withTokenNote(message: string): string {
  const [first] = TOKEN_ENV_VARS;
  return TOKEN_LIKE_FLAG.test(message)
    ? `${message} (the API token is read from ${first} in the environment, never from a flag)`
    : message;
}

/** The hint of a refused command line: set the variable for a token-like flag, else the help. */
export function flagErrorHint(message: string, command: Command): string {
  const [first, ...others] = TOKEN_ENV_VARS;
  if (TOKEN_LIKE_FLAG.test(message))
    return `Export ${first}=<your token> (or ${others.join(" or ")}); tokens are never accepted on the command line, where other users could read them.`;
  return `run \`${commandPath(command)} --help\` for ${helpHolds(command)}`;
}

/** The command the arguments name (`operation get`), or the program when they name none. */
export function commandNamed(program: Command, argv: string[]): Command {
  let command = program;
  for (const word of argv.slice(2)) {
    const next = command.commands.find((sub) => sub.name() === word);
    if (next === undefined) break;
    command = next;
  }
  return command;
}

/** What a command's help lists that a usage error may have got wrong. */
export function helpHolds(command: Command): string {
  return command.commands.length > 0 ? "the commands" : "the flags";
}

/** `zoo-usage export`, `zoo-usage operation get`: how the help of a command is asked for. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current !== null; current = current.parent) {
    names.unshift(current.name());
  }
  return names.join(" ");
}

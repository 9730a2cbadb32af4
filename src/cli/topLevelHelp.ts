/**
 * After the commands of the top-level help: where a newcomer starts, and where the docs are (they
 * ship with the package, so this holds for a clone and for an install alike).
 */
export const TOP_LEVEL_HELP = `
Start here:
  zoo-usage demo      an export of a simulated account into ./zoo-usage-demo/,
                      no account or network needed (npm start in a clone)
  zoo-usage export    your account's, with ZOO_API_TOKEN set

Docs: README.md and docs/ beside this program's package.json (docs/tutorial.md
first, docs/cli.md for every flag), or the repository's README.`;

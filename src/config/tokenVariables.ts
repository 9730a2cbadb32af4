/**
 * Token variables in the order the official clients use them:
 * the Zoo CLI and Go client, then the Rust/Python and TypeScript legacy names. A file of its own,
 * without zod, so that the help and the --json line name them without loading the config schema.
 */
export const TOKEN_ENV_VARS = ["ZOO_API_TOKEN", "KITTYCAD_API_TOKEN", "KITTYCAD_TOKEN"] as const;

// Bundles tsc's dist/ into dist/bin/, the CLI as users run it (package.json "bin"). Run by
// `npm run build`, after tsc. One chunk per command, so that `--help` and `--version` still load
// no command, no zod and no DuckDB (test/cli/startup.test.ts). Node then starts on a few chunks
// instead of ~300 modules: about 0.1 s of CPU less for each run. DuckDB's JavaScript API (~180
// CommonJS files) goes into the database chunk; its native addon (@duckdb/node-bindings, which picks
// the platform's binary at run time) and the AWS SDK (loaded only for s3://) stay packages of
// their own.
import { build } from "rolldown";

await build({
  input: { "zoo-usage": "dist/cli/main.js" },
  platform: "node",
  external: [/^@duckdb\/node-bindings/, /^@aws-sdk\//],
  logLevel: "warn",
  output: {
    dir: "dist/bin",
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "[name].js",
    codeSplitting: { groups: [{ name: "zod", test: /node_modules[\\/]zod[\\/]/ }] },
  },
});

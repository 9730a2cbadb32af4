// Bundles tsc's dist/ into dist/bin/, the CLI as users run it (package.json "bin"). Run by
// `npm run build`, after tsc. One chunk per command, so that `--help` and `--version` still load
// no command, no zod and no DuckDB (test/cli/startup.test.ts). Node then starts on a few chunks
// instead of ~300 modules: about 0.1 s of CPU less for each run. DuckDB's JavaScript API (~180
// CommonJS files) goes into the database chunk; its native addon (@duckdb/node-bindings, which picks
// the platform's binary at run time) and the AWS SDK (loaded only for s3://) stay packages of
// their own. The chunks are CommonJS, so that the entry (src/cli/bin.ts, dist/bin/zoo-usage.js)
// can run them with V8's compiled code of earlier runs (src/cli/compileCache.ts): Node 20 offers
// that for CommonJS only.
import { build } from "rolldown";

const shared = { platform: "node", logLevel: "warn" };

const { output } = await build({
  ...shared,
  input: { main: "dist/cli/main.js" },
  external: [/^@duckdb\/node-bindings/, /^@aws-sdk\//],
  output: {
    dir: "dist/bin",
    format: "cjs",
    entryFileNames: "[name].cjs",
    chunkFileNames: "[name].cjs",
    codeSplitting: { groups: [{ name: "zod", test: /node_modules[\\/]zod[\\/]/ }] },
  },
});

// A chunk run from cached code has no loader for import(): one left in the bundle (of a package kept
// out of it; rolldown turns those between chunks into requires) would fail at the second run only.
const chunkFiles = new Set(output.map((item) => item.fileName));
for (const chunk of output.filter((item) => item.type === "chunk")) {
  const imported = chunk.dynamicImports.filter((name) => !chunkFiles.has(name));
  if (imported.length > 0) {
    throw new Error(`${chunk.fileName} imports ${imported.join(", ")} with import(): require it instead`);
  }
}

await build({
  ...shared,
  input: { "zoo-usage": "dist/cli/bin.js" },
  output: { dir: "dist/bin", format: "esm", entryFileNames: "[name].js" },
});

// s3rver in a process of its own, started by test/helpers/s3Server.ts and bench/s3.mjs:
//   node --openssl-legacy-provider s3rverMain.mjs <directory> <bucket>...
// It prints {"port": N} once listening and runs until killed. The legacy provider is for s3rver's
// continuation tokens (DES, which OpenSSL 3 only has there): without it a truncated listing fails.
import S3rver from "s3rver";

const [directory, ...buckets] = process.argv.slice(2);
const server = new S3rver({
  port: 0,
  address: "127.0.0.1",
  silent: true,
  directory,
  configureBuckets: buckets.map((name) => ({ name })),
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);

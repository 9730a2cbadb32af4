import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";

// The SDK's notice that its later releases need Node 22 is about upgrading it, not about a test.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

/** s3rver's one credential: it checks the access key id, not the signature. */
export const S3_KEY_ID = "S3RVER";
export const S3_SECRET = "S3RVER";

/** One request the proxy saw, by method and path (path-style: /bucket/key). */
export interface S3Request {
  method: string;
  path: string;
  search: string;
  headers: http.IncomingHttpHeaders;
}

/** An answer the proxy gives instead of the server's (503 SlowDown, a refusal), or a dropped connection. */
export type S3Injected = { status: number; body: string } | "drop";

/**
 * A real S3-compatible server (s3rver in a child process, on 127.0.0.1, port 0, files in a temp dir) with a proxy in
 * front of it that the exporter talks to. The proxy records every request, can answer some itself
 * (`intercept`), and can hold requests (`hold`) until released, so a test can kill the exporter
 * while an upload is in flight without sleeping.
 */
export interface S3Server {
  /** The proxy's URL: the exporter's AWS_ENDPOINT_URL_S3. */
  endpoint: string;
  requests: S3Request[];
  /** Requests matching this are answered by the proxy instead (undefined: passed on). */
  intercept: ((request: S3Request) => S3Injected | undefined) | undefined;
  /**
   * Requests whose body this returns a rewrite for are read whole, rewritten, and passed on with
   * their Content-Length fixed (the checksum and signature headers as sent): a body cut short on the
   * way that the server stores and acknowledges with 200.
   */
  rewriteBody: ((request: S3Request) => ((body: Buffer) => Buffer) | undefined) | undefined;
  /**
   * Requests matching this are held, never answered: `held` resolves at the first one; `abandoned`
   * when the client closes a held request's connection itself (it timed out, or was stopped);
   * `release` drops every held one (its connection closed, so the client retries it) and stops
   * holding. Holds may overlap.
   */
  holdWhen(match: (request: S3Request) => boolean): {
    held: Promise<void>;
    abandoned: Promise<void>;
    release: () => void;
  };
  /** The environment the exporter needs to reach the server. */
  env(): Record<string, string>;
  /** A client straight to the server (no proxy) for the test's own reads. */
  client: S3Client;
  /** Every object under a prefix, downloaded into `dir` with the same layout. */
  download(bucket: string, prefix: string, dir: string): Promise<string[]>;
  close(): Promise<void>;
}

/** A PUT of a partition's file (`.../data.parquet`), as the proxy sees it. */
export const isPartitionPut = (request: S3Request): boolean =>
  request.method === "PUT" && request.path.endsWith("/data.parquet");

/**
 * The environment an export needs to read the simulator's first user and write to the server: the
 * token and host, the AWS variables, and `extra` over them.
 */
export function exportEnv(
  sim: { url: string; users: readonly { token: string }[] },
  s3: S3Server,
  extra: Record<string, string> = {},
): Record<string, string> {
  return { ZOO_API_TOKEN: sim.users[0]?.token ?? "", ZOO_HOST: sim.url, ...s3.env(), ...extra };
}

export async function startS3Server(buckets: readonly string[]): Promise<S3Server> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-s3-"));
  const s3rver = spawn(
    process.execPath,
    ["--openssl-legacy-provider", path.join(import.meta.dirname, "s3rverMain.mjs"), directory, ...buckets],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = (await once(s3rver.stdout, "data")) as [Buffer];
  const serverPort = (JSON.parse(line.toString("utf8")) as { port: number }).port;
  const requests: S3Request[] = [];
  // Several holds may be in place at once (two runs each held at its own step); a request is held
  // by the first whose match takes it.
  const holds: {
    match: (request: S3Request) => boolean;
    seen: () => void;
    abandon: () => void;
    released: boolean;
    dropped: (() => void)[];
  }[] = [];
  const state: Pick<S3Server, "intercept" | "rewriteBody"> = { intercept: undefined, rewriteBody: undefined };
  const proxy = http.createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", "http://proxy");
    const request = {
      method: incoming.method ?? "GET",
      path: url.pathname,
      search: url.search,
      headers: incoming.headers,
    };
    requests.push(request);
    const injected = state.intercept?.(request);
    if (injected === "drop") {
      incoming.socket.destroy();
      return;
    }
    if (injected !== undefined) {
      incoming.resume();
      outgoing.writeHead(injected.status, { "content-type": "application/xml" }).end(injected.body);
      return;
    }
    const hold = holds.find((candidate) => candidate.match(request));
    if (hold !== undefined) {
      hold.dropped.push(() => incoming.socket.destroy());
      incoming.socket.once("close", () => {
        if (!hold.released) hold.abandon();
      });
      hold.seen();
      return;
    }
    const forward = (headers: http.OutgoingHttpHeaders) => {
      const upstream = http.request(
        { host: "127.0.0.1", port: serverPort, method: incoming.method, path: incoming.url, headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on("error", () => outgoing.destroy());
      return upstream;
    };
    const rewrite = state.rewriteBody?.(request);
    if (rewrite === undefined) {
      incoming.pipe(forward(incoming.headers));
      return;
    }
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = rewrite(Buffer.concat(chunks));
      const { expect: _expect, ...headers } = incoming.headers;
      forward({ ...headers, "content-length": String(body.length) }).end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${serverPort}`,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: S3_KEY_ID, secretAccessKey: S3_SECRET },
  });
  const server: S3Server = {
    endpoint,
    requests,
    get intercept() {
      return state.intercept;
    },
    set intercept(value) {
      state.intercept = value;
    },
    get rewriteBody() {
      return state.rewriteBody;
    },
    set rewriteBody(value) {
      state.rewriteBody = value;
    },
    holdWhen(match) {
      let seen = () => {};
      const held = new Promise<void>((resolve) => {
        seen = resolve;
      });
      let abandon = () => {};
      const abandoned = new Promise<void>((resolve) => {
        abandon = resolve;
      });
      const hold = { match, seen, abandon, released: false, dropped: [] as (() => void)[] };
      holds.push(hold);
      return {
        held,
        abandoned,
        release: () => {
          hold.released = true;
          if (holds.includes(hold)) holds.splice(holds.indexOf(hold), 1);
          for (const drop of hold.dropped) drop();
        },
      };
    },
    env: () => ({
      AWS_ACCESS_KEY_ID: S3_KEY_ID,
      AWS_SECRET_ACCESS_KEY: S3_SECRET,
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_REGION: "us-east-1",
    }),
    client,
    async download(bucket, prefix, dir) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      for (const key of keys) {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const file = path.join(dir, key.slice(prefix.length));
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, await (object.Body?.transformToByteArray() ?? new Uint8Array()));
      }
      return keys.map((key) => key.slice(prefix.length)).sort();
    },
    async close() {
      holds.length = 0;
      client.destroy();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      s3rver.kill("SIGKILL");
      if (s3rver.exitCode === null && s3rver.signalCode === null) await once(s3rver, "exit");
      await rm(directory, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * The Node server (`npm start`, `kunion serve`): the app with the CRDs and Conversion
 * declarations of two folders, over HTTP, or HTTPS when a certificate and key are given
 * (a webhook behind a cluster must be served over TLS).
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { type AppOptions, createApp } from "./app.js";

export interface ServerOptions {
  /** 0 picks a free port (tests, benchmarks). */
  port: number;
  /** Default 127.0.0.1; 0.0.0.0 in a container behind a Service. */
  hostname?: string;
  /** CRD and schema files (default examples/crds). */
  crdsDir?: string;
  /** Conversion declarations (default examples/conversions). */
  conversionsDir?: string;
  /** PEM certificate chain and key: serve HTTPS. */
  tls?: { cert: string; key: string };
  /** Passed to createApp (benchEcho, budgetMs). */
  app?: Omit<AppOptions, "defaults" | "conversions">;
}

export interface RunningServer {
  url: string;
  port: number;
  crds: number;
  conversions: number;
  close(): Promise<void>;
}

/** The YAML and JSON files of a folder (not recursive); none when the folder does not exist. */
function filesOf(folder: string): Array<{ path: string; text: string }> {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  return names
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .sort()
    .map((name) => ({ path: join(folder, name), text: readFileSync(join(folder, name), "utf8") }));
}

export function startServer(options: ServerOptions): Promise<RunningServer> {
  const defaults = filesOf(options.crdsDir ?? "examples/crds");
  const conversions = filesOf(options.conversionsDir ?? "examples/conversions");
  const app = createApp({ ...options.app, defaults, conversions });
  const hostname = options.hostname ?? "127.0.0.1";
  const scheme = options.tls ? "https" : "http";
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: app.fetch,
        port: options.port,
        hostname,
        ...(options.tls ? { createServer: createHttpsServer, serverOptions: options.tls } : {}),
      },
      (info: AddressInfo) => {
        server.off("error", reject);
        const host = info.address.includes(":") ? `[${info.address}]` : info.address;
        resolve({
          url: `${scheme}://${host}:${info.port}`,
          port: info.port,
          crds: defaults.length,
          conversions: conversions.length,
          close: () =>
            new Promise<void>((done, fail) => {
              server.close((err) => (err ? fail(err) : done()));
              (server as { closeAllConnections?: () => void }).closeAllConnections?.();
            }),
        });
      },
    );
    server.once("error", reject);
  });
}

/** TLS from `TLS_CERT` and `TLS_KEY` (paths of PEM files), when both are set. */
export function tlsFromEnv(env: NodeJS.ProcessEnv = process.env): { cert: string; key: string } | undefined {
  if (!env.TLS_CERT && !env.TLS_KEY) return undefined;
  if (!env.TLS_CERT || !env.TLS_KEY) throw new Error("HTTPS needs both TLS_CERT and TLS_KEY");
  return { cert: readFileSync(env.TLS_CERT, "utf8"), key: readFileSync(env.TLS_KEY, "utf8") };
}

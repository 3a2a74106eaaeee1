/** The Node server over HTTPS (TLS_CERT/TLS_KEY), with a self-signed certificate made by openssl. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServer, tlsFromEnv } from "./node-server.js";
import { serverBundle } from "./test-bundle.js";

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!hasOpenssl())("startServer with TLS", () => {
  it("serves HTTPS with the certificate of TLS_CERT and TLS_KEY", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kunion-tls-"));
    const [cert, key] = [join(dir, "tls.crt"), join(dir, "tls.key")];
    try {
      execFileSync(
        "openssl",
        ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"].concat([
          "-subj",
          "/CN=127.0.0.1",
          "-addext",
          "subjectAltName=IP:127.0.0.1",
          "-keyout",
          key,
          "-out",
          cert,
        ]),
        { stdio: "ignore" },
      );
      const tls = tlsFromEnv({ TLS_CERT: cert, TLS_KEY: key });
      const server = await startServer({ port: 0, tls, workerEntry: await serverBundle() });
      try {
        expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        const body = await new Promise<string>((resolve, reject) => {
          const req = request(`${server.url}/healthz`, { ca: readFileSync(cert) }, (res) => {
            let text = "";
            res.on("data", (c: Buffer) => {
              text += c.toString();
            });
            res.on("end", () => resolve(text));
          });
          req.on("error", reject);
          req.end();
        });
        expect(JSON.parse(body)).toEqual({ status: "ok" });
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses half a TLS configuration", () => {
    expect(() => tlsFromEnv({ TLS_CERT: "x" })).toThrow("HTTPS needs both TLS_CERT and TLS_KEY");
    expect(tlsFromEnv({})).toBeUndefined();
  });
});

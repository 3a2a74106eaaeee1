/** The body limit as the app applies it, the same on Workers and in-process: a body read while it streams. */
import { describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { maxBodyBytes, readLimited } from "./request.js";

const app = createApp({ defaults: [] });

/** A stream of `chunk`-byte pieces that never ends, counting what was pulled from it. */
function endless(chunk: number) {
  const seen = { pulled: 0 };
  const piece = new Uint8Array(chunk).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      seen.pulled += chunk;
      controller.enqueue(piece.slice());
    },
  });
  return { stream, seen };
}

describe("a body read while it streams", () => {
  it("an endless body without Content-Length: 413 once it passes 3 MiB, no more of it pulled", async () => {
    const { stream, seen } = endless(64 * 1024);
    const res = await app.request("/v1/validate", {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half", // a streamed body needs it in Node's fetch
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: `request body is larger than ${maxBodyBytes} bytes`, field: "body" });
    // The chunks up to the limit, and the few a stream reads ahead.
    expect(seen.pulled).toBeLessThan(maxBodyBytes + 8 * 64 * 1024);
  });

  it("readLimited returns a body at the limit whole, joined from its chunks, and refuses one byte more", async () => {
    const chunksOf = (sizes: number[]) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          sizes.forEach((n, i) => {
            controller.enqueue(new Uint8Array(n).fill(i + 1));
          });
          controller.close();
        },
      });
    const bytes = await readLimited(chunksOf([3, 5, 2]), 10);
    expect([...bytes]).toEqual([1, 1, 1, 2, 2, 2, 2, 2, 3, 3]);
    await expect(readLimited(chunksOf([3, 5, 3]), 10)).rejects.toMatchObject({ status: 413, field: "body" });
    expect((await readLimited(null, 10)).byteLength).toBe(0);
  });
});

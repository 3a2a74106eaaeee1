/**
 * The body limit as the app applies it, the same on Workers and in-process: a body read while
 * it streams; and a body the Node server read before the app (BufferedRequest) read as a streamed one is.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApp } from "./app.js";
import { BufferedRequest, maxBodyBytes, readLimited, readLocated } from "./request.js";

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

describe("a body already in memory (BufferedRequest)", () => {
  const url = "http://kunion.local/v1/validate";
  const pair = (bytes: Uint8Array, type = "application/json") => {
    const headers: Array<[string, string]> = [["content-type", type]];
    return [
      new Request(url, { method: "POST", headers, body: bytes.slice() }),
      new BufferedRequest(url, { method: "POST", headers }, bytes.slice()),
    ] as const;
  };
  const outcome = async (read: () => Promise<unknown>) => {
    try {
      return { value: await read() };
    } catch (e) {
      return { thrown: e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e) };
    }
  };
  const texts = fc.oneof(
    fc.string({ unit: "grapheme" }),
    fc.json(),
    fc.jsonValue().map((v) => `\uFEFF${JSON.stringify(v)}`),
  );
  const bodies = fc.oneof(
    texts.map((t) => new TextEncoder().encode(t)),
    fc.uint8Array({ maxLength: 64 }), // not always UTF-8
  );

  it("reads as a Request with the same body does: text, json, arrayBuffer, bytes and the body stream", async () => {
    await fc.assert(
      fc.asyncProperty(bodies, async (bytes) => {
        for (const reader of ["text", "json", "arrayBuffer", "bytes"] as const) {
          const [streamed, buffered] = pair(bytes);
          expect(await outcome(() => buffered[reader]())).toEqual(await outcome(() => streamed[reader]()));
        }
        const [streamed, buffered] = pair(bytes);
        expect(await readLimited(buffered.body, maxBodyBytes)).toEqual(await readLimited(streamed.body, maxBodyBytes));
      }),
    );
  });

  it("readLocated gives what it gives for the streamed body, answer or refusal, JSON or YAML", async () => {
    await fc.assert(
      fc.asyncProperty(bodies, fc.constantFrom("application/json", "application/yaml"), async (bytes, type) => {
        const [streamed, buffered] = pair(bytes, type);
        const read = async (req: Request) => {
          const r = await outcome(() => readLocated(req));
          return "value" in r ? { value: (r.value as { body: unknown }).body } : r;
        };
        expect(await read(buffered)).toEqual(await read(streamed));
      }),
    );
  });

  // JSON bodies go through the YAML reader, which refuses a duplicate key where JSON.parse keeps the last.
  it("a JSON body reads as JSON.parse reads it, however it is laid out", async () => {
    const objects = fc.dictionary(fc.string({ unit: "binary" }), fc.jsonValue({ stringUnit: "binary" }));
    await fc.assert(
      fc.asyncProperty(objects, fc.constantFrom(undefined, 2, "\t"), async (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const [, buffered] = pair(new TextEncoder().encode(text));
        expect((await readLocated(buffered)).body).toEqual(JSON.parse(text));
      }),
    );
  });

  it("a body over the limit is refused with 413", async () => {
    const [, buffered] = pair(new Uint8Array(maxBodyBytes + 1).fill(0x20));
    await expect(readLocated(buffered)).rejects.toMatchObject({ status: 413, field: "body" });
  });
});

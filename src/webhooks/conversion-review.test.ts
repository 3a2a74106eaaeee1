import { describe, expect, it } from "vitest";
import { clone, getKey, isObject, type JsonObject, type JsonValue, setKey } from "../value/index.js";
import { type Converters, type ConvertFn, handleConversionReview, maxReviewObjects } from "./index.js";

const group = "batch.tutorial.kubebuilder.io";
const gv = (version: string) => `${group}/${version}`;
const versions = ["v1", "v2", "v3"];

// The kubebuilder CronJob, declared by hand: v1 has `schedule: "m h dom mon dow"`, v2 (the hub)
// and v3 have `schedule: {minute, hour, dayOfMonth, month, dayOfWeek}`.
const fields = ["minute", "hour", "dayOfMonth", "month", "dayOfWeek"] as const;

const cronJobConvert: ConvertFn = (object, toApiVersion) => {
  const out = clone(object);
  const from = String(getKey(object, "apiVersion")).split("/")[1];
  const to = toApiVersion.split("/")[1];
  const spec = getKey(out, "spec");
  if (!isObject(spec)) return { error: "spec: Required value" };
  const schedule = getKey(spec, "schedule");
  if (from === "v1" && to !== "v1") {
    if (typeof schedule !== "string") return { error: "spec.schedule: Invalid value: must be a string" };
    const parts = schedule.split(" ");
    if (parts.length !== 5)
      return { error: `spec.schedule: Invalid value: ${JSON.stringify(schedule)}: must have 5 fields` };
    const struct: JsonObject = {};
    fields.forEach((f, i) => {
      struct[f] = parts[i] as string;
    });
    spec.schedule = struct;
  } else if (from !== "v1" && to === "v1") {
    if (!isObject(schedule)) return { error: "spec.schedule: Invalid value: must be an object" };
    spec.schedule = fields.map((f) => String(getKey(schedule, f) ?? "*")).join(" ");
  }
  out.apiVersion = toApiVersion;
  return { object: out };
};

const fakeConverters = (convert: ConvertFn = cronJobConvert, known = versions): Converters & { lookups: number } => {
  const c = {
    lookups: 0,
    forKind(g: string, kind: string) {
      c.lookups++;
      return g === group && kind === "CronJob" ? { convert, versions: known } : undefined;
    },
  };
  return c;
};

const cronJob = (version: string, name: string, extra: JsonObject = {}): JsonObject => ({
  apiVersion: gv(version),
  kind: "CronJob",
  metadata: { name, namespace: "default", uid: `uid-${name}`, resourceVersion: "7", generation: 2 },
  spec: {
    schedule:
      version === "v1" ? "*/1 * * * *" : { minute: "*/1", hour: "*", dayOfMonth: "*", month: "*", dayOfWeek: "*" },
    ...extra,
  },
});

const review = (objects: JsonValue, desired = gv("v2"), apiVersion = "apiextensions.k8s.io/v1"): JsonObject => ({
  apiVersion,
  kind: "ConversionReview",
  request: { uid: "705ab4f5-6393-11e8-b7cc-42010a800002", desiredAPIVersion: desired, objects },
});

interface Response {
  uid: string;
  convertedObjects: JsonObject[];
  result: { status: string; message?: string };
}

function ok(review: unknown, converters: Converters = fakeConverters()): Response {
  const answer = handleConversionReview(review, converters);
  expect(answer.status).toBe(200);
  const body = answer.body as JsonObject;
  expect(body.kind).toBe("ConversionReview");
  expect(body.apiVersion).toBe((review as JsonObject).apiVersion);
  return body.response as unknown as Response;
}

function failure(review: unknown, converters: Converters = fakeConverters()): string {
  const response = ok(review, converters);
  expect(response.result.status).toBe("Failure");
  expect(response.convertedObjects).toEqual([]);
  expect(response.uid).toBe("705ab4f5-6393-11e8-b7cc-42010a800002");
  return response.result.message as string;
}

function malformed(review: unknown): { error: string; field: string } {
  const answer = handleConversionReview(review, fakeConverters());
  expect(answer.status).toBe(400);
  const body = answer.body as { error: string; field: string };
  expect(Object.keys(body).sort()).toEqual(["error", "field"]);
  expect(typeof body.error).toBe("string");
  expect(body.error).not.toBe("");
  return body;
}

describe("handleConversionReview: conversions", () => {
  it("answers an apiextensions.k8s.io/v1 review: uid echoed, objects converted in order", () => {
    const answer = handleConversionReview(review([cronJob("v1", "a"), cronJob("v1", "b")]), fakeConverters());
    expect(answer).toEqual({
      status: 200,
      body: {
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "ConversionReview",
        response: {
          uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
          convertedObjects: [cronJob("v2", "a"), cronJob("v2", "b")],
          result: { status: "Success" },
        },
      },
    });
    // What is sent is JSON as the API server reads it.
    expect(JSON.parse(JSON.stringify(answer.body))).toEqual(answer.body);
  });

  it("answers a v1beta1 review in v1beta1", () => {
    const response = ok(review([cronJob("v2", "a")], gv("v1"), "apiextensions.k8s.io/v1beta1"));
    expect(response.result).toEqual({ status: "Success" });
    expect(response.convertedObjects).toEqual([cronJob("v1", "a")]);
  });

  it("converts objects of mixed source versions and passes those at the desired version through unchanged", () => {
    const atDesired = cronJob("v2", "b", { note: { kept: ["as", "is"] } });
    const objects = [cronJob("v1", "a"), atDesired, cronJob("v3", "c"), cronJob("v1", "d")];
    const converters = fakeConverters();
    const response = ok(review(objects), converters);
    expect(response.result).toEqual({ status: "Success" });
    expect(response.convertedObjects).toEqual([cronJob("v2", "a"), atDesired, cronJob("v2", "c"), cronJob("v2", "d")]);
    expect(response.convertedObjects[1]).toBe(atDesired);
    expect(converters.lookups).toBe(1);
  });

  it("passes objects through without calling the converter", () => {
    let calls = 0;
    const converters = fakeConverters((o, v) => {
      calls++;
      return cronJobConvert(o, v);
    });
    const response = ok(review([cronJob("v3", "a"), cronJob("v3", "b")], gv("v3")), converters);
    expect(response.convertedObjects).toEqual([cronJob("v3", "a"), cronJob("v3", "b")]);
    expect(calls).toBe(0);
  });

  it("answers an empty list with an empty list", () => {
    expect(ok(review([]))).toEqual({
      uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
      convertedObjects: [],
      result: { status: "Success" },
    });
  });

  it("fails the whole review on the first object that does not convert, naming it and the converter's error", () => {
    const bad = cronJob("v1", "bad");
    (bad.spec as JsonObject).schedule = "@hourly";
    const message = failure(review([cronJob("v1", "a"), bad, cronJob("v1", "c", { schedule: 3 })]));
    expect(message).toBe(
      `request.objects[1] (CronJob default/bad): converting from ${gv("v1")} to ${gv("v2")}: ` +
        'spec.schedule: Invalid value: "@hourly": must have 5 fields',
    );
  });

  it("fails the review when a converter throws or returns nothing", () => {
    const thrown = failure(
      review([cronJob("v1", "a")]),
      fakeConverters(() => {
        throw new Error("boom");
      }),
    );
    expect(thrown).toContain("request.objects[0] (CronJob default/a)");
    expect(thrown).toContain("the converter failed: boom");
    const nothing = failure(
      review([cronJob("v1", "a")]),
      fakeConverters(() => ({})),
    );
    expect(nothing).toContain("the converter returned no object");
  });

  it("fails a review that asks for a version the converter does not know, listing the known versions", () => {
    const message = failure(review([cronJob("v1", "a")], gv("v9")));
    expect(message).toBe(
      'request.objects[0] (CronJob default/a): the desired version "v9" is not a version of CronJob ' +
        '(known versions: "v1", "v2", "v3")',
    );
    const source = failure(review([cronJob("v7", "a")]));
    expect(source).toContain(
      'the object\'s version "v7" is not a version of CronJob (known versions: "v1", "v2", "v3")',
    );
  });

  it("fails a review of a kind no conversion is deployed for", () => {
    const other = { apiVersion: gv("v1"), kind: "Job", metadata: { name: "j" } };
    const message = failure(review([other]));
    expect(message).toBe(
      `request.objects[0] (Job j): no conversion is deployed for kind Job of group "${group}" (known versions: none)`,
    );
  });

  it("fails a review that asks for another group", () => {
    const message = failure(review([cronJob("v1", "a")], "other.example.com/v2"));
    expect(message).toContain('cannot convert to "other.example.com/v2"');
  });

  it("does not mutate the review, even with a converter that edits its input in place", () => {
    const input = review([cronJob("v1", "a"), cronJob("v3", "b")]);
    const before = clone(input);
    const inPlace: ConvertFn = (o, v) => {
      const r = cronJobConvert(o, v);
      o.spec = "clobbered";
      return r;
    };
    ok(input, fakeConverters(inPlace));
    expect(input).toEqual(before);
  });

  it("gives a converter the request's own object only when it promises to leave it alone", () => {
    const input = review([cronJob("v1", "a")]);
    const given = (input.request as JsonObject).objects as JsonObject[];
    const received = (leavesInputAlone: boolean) => {
      const seen: JsonObject[] = [];
      const recording: Converters = {
        forKind: () => ({
          versions,
          leavesInputAlone,
          convert: (o, v) => {
            seen.push(o);
            return cronJobConvert(o, v);
          },
        }),
      };
      ok(input, recording);
      return seen[0];
    };
    expect(received(true)).toBe(given[0]);
    expect(received(false)).not.toBe(given[0]);
    expect(received(false)).toEqual(given[0]);
  });
});

describe("handleConversionReview: converted objects are checked", () => {
  const tamper =
    (edit: (o: JsonObject) => void): ConvertFn =>
    (object, to) => {
      const r = cronJobConvert(object, to);
      if (r.object) edit(r.object);
      return r;
    };
  const meta = (o: JsonObject) => o.metadata as JsonObject;

  it("refuses a converter that renames the object", () => {
    const message = failure(
      review([cronJob("v1", "a"), cronJob("v1", "b")]),
      fakeConverters(
        tamper((o) => {
          if (meta(o).name === "b") meta(o).name = "renamed";
        }),
      ),
    );
    expect(message).toBe(
      'request.objects[1] (CronJob default/b): converted object refused: metadata tampering: metadata.name changed from "b" to "renamed" ' +
        "(a conversion may change only metadata.labels and metadata.annotations)",
    );
  });

  it("refuses changes to namespace, uid and the rest of metadata, listing each", () => {
    const message = failure(
      review([cronJob("v1", "a")]),
      fakeConverters(
        tamper((o) => {
          meta(o).namespace = "kube-system";
          delete meta(o).uid;
          meta(o).generation = 3;
          meta(o).finalizers = ["x"];
        }),
      ),
    );
    expect(message).toContain("metadata tampering");
    expect(message).toContain('metadata.namespace changed from "default" to "kube-system"');
    expect(message).toContain('metadata.uid changed from "uid-a" to nothing');
    expect(message).toContain("metadata.generation changed");
    expect(message).toContain("metadata.finalizers added");
  });

  it("refuses a converted object without metadata", () => {
    const message = failure(
      review([cronJob("v1", "a")]),
      fakeConverters(
        tamper((o) => {
          delete o.metadata;
        }),
      ),
    );
    expect(message).toContain("metadata is missing, not an object");
  });

  it("allows labels and annotations to change", () => {
    const converters = fakeConverters(
      tamper((o) => {
        meta(o).labels = { "app.kubernetes.io/name": "cron" };
        meta(o).annotations = { "kunion.dev/conversion-data": '{"spec":{"x":1}}' };
      }),
    );
    const response = ok(review([cronJob("v1", "a")]), converters);
    expect(response.result).toEqual({ status: "Success" });
    expect(response.convertedObjects[0]?.metadata).toEqual({
      name: "a",
      namespace: "default",
      uid: "uid-a",
      resourceVersion: "7",
      generation: 2,
      labels: { "app.kubernetes.io/name": "cron" },
      annotations: { "kunion.dev/conversion-data": '{"spec":{"x":1}}' },
    });
  });

  it("refuses labels that are not strings, as the API server does", () => {
    const message = failure(
      review([cronJob("v1", "a")]),
      fakeConverters(
        tamper((o) => {
          meta(o).labels = { tier: 1 };
        }),
      ),
    );
    expect(message).toContain("metadata.labels[tier] must be a string, not 1");
  });

  it("refuses a wrong apiVersion or a changed kind", () => {
    const version = failure(
      review([cronJob("v1", "a")]),
      fakeConverters(
        tamper((o) => {
          o.apiVersion = gv("v3");
        }),
      ),
    );
    expect(version).toContain(`apiVersion is "${gv("v3")}", not the desired "${gv("v2")}"`);
    const kind = failure(
      review([cronJob("v1", "a")]),
      fakeConverters(
        tamper((o) => {
          o.kind = "Job";
        }),
      ),
    );
    expect(kind).toContain('kind changed from "CronJob" to "Job"');
  });
});

describe("handleConversionReview: malformed reviews get HTTP 400 naming the field", () => {
  it.each([
    ["null", null, ""],
    ["a string", "ConversionReview", ""],
    ["a list", [], ""],
    ["another apiVersion", { ...review([]), apiVersion: "admission.k8s.io/v1" }, "apiVersion"],
    ["another kind", { ...review([]), kind: "AdmissionReview" }, "kind"],
    ["no request", { apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview" }, "request"],
    ["a request that is a list", { ...review([]), request: [] }, "request"],
  ])("%s", (_, body, field) => {
    expect(malformed(body).field).toBe(field);
  });

  const withRequest = (edit: (r: JsonObject) => void) => {
    const r = review([cronJob("v1", "a")]);
    edit(r.request as JsonObject);
    return r;
  };

  it("a missing, empty or non-string uid", () => {
    expect(malformed(withRequest((r) => delete r.uid))).toEqual({
      error: "must be a non-empty string, not nothing",
      field: "request.uid",
    });
    expect(malformed(withRequest((r) => (r.uid = ""))).field).toBe("request.uid");
    expect(malformed(withRequest((r) => (r.uid = 42))).field).toBe("request.uid");
  });

  it("a missing or malformed desiredAPIVersion", () => {
    expect(malformed(withRequest((r) => delete r.desiredAPIVersion)).field).toBe("request.desiredAPIVersion");
    expect(malformed(withRequest((r) => (r.desiredAPIVersion = "a/b/c"))).field).toBe("request.desiredAPIVersion");
    expect(malformed(withRequest((r) => (r.desiredAPIVersion = ""))).field).toBe("request.desiredAPIVersion");
  });

  it("objects that are not a list", () => {
    expect(malformed(withRequest((r) => delete r.objects)).field).toBe("request.objects");
    expect(malformed(withRequest((r) => (r.objects = { 0: cronJob("v1", "a") }))).field).toBe("request.objects");
    expect(malformed(withRequest((r) => (r.objects = null))).field).toBe("request.objects");
  });

  it("an object that is not an object, or has no apiVersion or kind", () => {
    const objects = (...list: JsonValue[]) => review(list);
    expect(malformed(objects(cronJob("v1", "a"), "CronJob")).field).toBe("request.objects[1]");
    const { apiVersion: _a, ...noApiVersion } = cronJob("v1", "a");
    expect(malformed(objects(cronJob("v1", "a"), noApiVersion))).toEqual({
      error: 'must be an apiVersion ("group/version"), not nothing',
      field: "request.objects[1].apiVersion",
    });
    const { kind: _k, ...noKind } = cronJob("v1", "a");
    expect(malformed(objects(noKind)).field).toBe("request.objects[0].kind");
    expect(malformed(objects({ ...cronJob("v1", "a"), metadata: "x" })).field).toBe("request.objects[0].metadata");
  });

  it("a malformed object later in the list is a 400, not a Failure of an earlier object", () => {
    const body = review([cronJob("v9", "a"), { kind: "CronJob" }]);
    expect(malformed(body).field).toBe("request.objects[1].apiVersion");
  });

  it("more objects than the limit", () => {
    const objects = new Array<JsonValue>(maxReviewObjects + 1).fill(cronJob("v2", "a"));
    const body = malformed(review(objects));
    expect(body.field).toBe("request.objects");
    expect(body.error).toContain(`the limit is ${maxReviewObjects}`);
  });
});

describe("handleConversionReview: hostile input", () => {
  it("keeps __proto__ keys as data and never reads fields through the prototype", () => {
    const text = JSON.stringify(review([cronJob("v1", "a")])).replace(
      '"metadata":{',
      '"metadata":{"labels":{"__proto__":"x"},"__proto__":{"polluted":true},',
    );
    const input = JSON.parse(text);
    const response = ok(input);
    expect(response.result).toEqual({ status: "Success" });
    const metadata = response.convertedObjects[0]?.metadata as JsonObject;
    expect(Object.hasOwn(metadata, "__proto__")).toBe(true);
    expect(getKey(metadata, "__proto__")).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    // A request hidden behind __proto__ is not a request.
    const hidden = JSON.parse(
      '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","__proto__":{"request":{"uid":"u","desiredAPIVersion":"a/v1","objects":[]}}}',
    );
    expect(malformed(hidden).field).toBe("request");
  });

  it("tampering with __proto__ in metadata is seen", () => {
    const converters = fakeConverters((o, v) => {
      const r = cronJobConvert(o, v);
      if (r.object) setKey(r.object.metadata as JsonObject, "__proto__", { injected: 1 });
      return r;
    });
    expect(failure(review([cronJob("v1", "a")]), converters)).toContain("metadata.__proto__ added");
    expect(({} as Record<string, unknown>).injected).toBeUndefined();
  });

  it("never throws, whatever the Converters do", () => {
    const broken: Converters = {
      forKind() {
        throw new Error("registry down");
      },
    };
    const response = ok(review([cronJob("v1", "a")]), broken);
    expect(response.result).toEqual({ status: "Failure", message: "conversion failed: registry down" });
    expect(
      ok(
        review([cronJob("v1", "a")]),
        fakeConverters(() => null as never),
      ).result.status,
    ).toBe("Failure");
  });
});

describe("handleConversionReview: scale", () => {
  it("converts 10,000 objects well under a second", () => {
    const n = 10_000;
    const trivial: ConvertFn = (object, to) => {
      const out: JsonObject = { ...object, apiVersion: to };
      return { object: out };
    };
    const objects: JsonObject[] = [];
    for (let i = 0; i < n; i++) objects.push(cronJob(i % 3 === 0 ? "v2" : i % 3 === 1 ? "v1" : "v3", `job-${i}`));
    const start = performance.now();
    const response = ok(review(objects), fakeConverters(trivial));
    const elapsed = performance.now() - start;
    expect(response.result).toEqual({ status: "Success" });
    expect(response.convertedObjects).toHaveLength(n);
    for (let i = 0; i < n; i++) {
      const o = response.convertedObjects[i] as JsonObject;
      expect(o.apiVersion).toBe(gv("v2"));
      expect((o.metadata as JsonObject).name).toBe(`job-${i}`);
    }
    expect(elapsed).toBeLessThan(2000);
  });
});

/**
 * Fuzzing the hand-written rules of Kubernetes' own kinds: the documentation's valid object of every common
 * kind (src/builtins/validation/testdata/valid.yaml), mutated at random paths (wrong types, prototype keys,
 * huge strings, deep nesting), on every release, as a create and as an update of another mutation. Each rule
 * reads the object as Go would decode it; a value of a shape it does not expect must give findings, never an
 * exception, a hang or a changed input.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import "../../src/builtins/all-releases.js";
import { buildCatalog, type JsonObject, kubernetesReleases, parseSource, validateObject } from "../../src/index.js";
import { mutate, mutations } from "./arbitraries.js";
import { answer, json, params, testTimeout } from "./harness.js";

const file = join(import.meta.dirname, "../../src/builtins/validation/testdata/valid.yaml");
const bases = parseSource(readFileSync(file, "utf8"), "valid.yaml").documents.map((d) => d.value as JsonObject);

const revision = (base: JsonObject) => mutations.map((m) => mutate(base, m));

describe("fuzz: the hand-written rules of built-in kinds", () => {
  it(
    "answer mutated documentation objects with findings, on every release, created or updated",
    () => {
      const { catalog } = buildCatalog([]);
      fc.assert(
        fc.property(
          fc.constantFrom(...bases).chain((base) =>
            fc.record({
              object: revision(base),
              old: fc.option(revision(base), { nil: undefined }),
              base: fc.constant(base),
            }),
          ),
          fc.constantFrom(...kubernetesReleases),
          ({ object, old, base }, release) => {
            const given = json([object, old]);
            const findings = answer(() =>
              validateObject(catalog, base.apiVersion as string, base.kind as string, object, {
                oldObject: old,
                kubernetesVersion: release,
              }),
            );
            expect(json([object, old]), "the inputs were changed").toBe(given);
            for (const f of findings) expect(typeof f.message).toBe("string");
          },
        ),
        params(1000),
      );
    },
    testTimeout,
  );
});

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSource } from "../source/index.js";
import type { JsonValue } from "../value/index.js";
import { type CrdChangeFinding, diffCrds } from "./index.js";

const corpus = join(import.meta.dirname, "../../../shared/corpus");

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? yamlFiles(join(dir, e.name)) : e.name.endsWith(".yaml") ? [join(dir, e.name)] : [],
  );
}

const documents = (file: string): JsonValue[] =>
  parseSource(readFileSync(file, "utf8"), file).documents.map((d) => d.value);

describe.skipIf(!existsSync(corpus))("corpus", () => {
  it("every CRD diffed against itself gives no finding", () => {
    const files = readdirSync(corpus)
      .filter((p) => existsSync(join(corpus, p, "crds")))
      .flatMap((p) => yamlFiles(join(corpus, p, "crds")));
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      for (const doc of documents(file)) expect(diffCrds(doc, doc), file).toEqual([]);
    }
  });

  describe("Gateway API standard → experimental channel", () => {
    const standard = join(corpus, "gateway-api/crds/standard");
    const experimental = join(corpus, "gateway-api/crds/experimental");
    const byFile = new Map<string, CrdChangeFinding[]>();
    const findings = (name: string) => {
      let found = byFile.get(name);
      if (!found) {
        const [a] = documents(join(standard, name));
        const [b] = documents(join(experimental, name));
        found = diffCrds(a ?? null, b ?? null);
        byFile.set(name, found);
      }
      return found;
    };
    const lines = (name: string) => findings(name).map((f) => `${f.severity} ${f.message}`);

    it("finds no removals, no type changes and nothing wrong with the documents", () => {
      const names = readdirSync(standard).filter((n) => existsSync(join(experimental, n)));
      expect(names.length).toBeGreaterThanOrEqual(10);
      for (const name of names) {
        // The report a reviewer reads: each line checked by hand (see the assertions below).
        console.log(
          `${name}: ${findings(name).length} finding(s)\n${lines(name)
            .map((l) => `  ${l}`)
            .join("\n")}`,
        );
        const rules = new Set(findings(name).map((f) => f.rule));
        for (const wrong of [
          "crd-invalid",
          "identity-changed",
          "version-removed",
          "stored-version-removed",
          "version-unserved",
          "storage-version-changed",
          "storage-version-count",
          "version-name-invalid",
          "schema-not-structural",
          "field-removed",
          "type-changed",
          "enum-restricted",
          "list-type-changed",
          "unknown-fields-pruned",
          "union-changed",
        ]) {
          expect(rules.has(wrong), `${name}: ${wrong}`).toBe(false);
        }
      }
    });

    it("channels that differ only in documentation or added fields report nothing", () => {
      for (const name of [
        "gateway.networking.k8s.io_gateways.yaml",
        "gateway.networking.k8s.io_gatewayclasses.yaml",
        "gateway.networking.k8s.io_referencegrants.yaml",
        "gateway.networking.k8s.io_listenersets.yaml",
        "gateway.networking.k8s.io_backendtlspolicies.yaml",
      ]) {
        expect(lines(name), name).toEqual([]);
      }
    });

    it("HTTPRoute: ExternalAuth joins the filter union (notices); header values gain a pattern (errors)", () => {
      const found = lines("gateway.networking.k8s.io_httproutes.yaml");
      expect(found).toContain(
        "notice v1 spec.rules[*].filters[*]: `externalAuth` added to the union of `cors`, `requestHeaderModifier`, `responseHeaderModifier`, `requestMirror`, `requestRedirect`, `urlRewrite`, `extensionRef`, `externalAuth`; clients that do not know it see none of the members set",
      );
      expect(found).toContain(
        'notice v1 spec.rules[*].filters[*].type: enum values added: "ExternalAuth"; old clients may not handle them',
      );
      expect(found).toContain(
        'error v1 spec.rules[*].matches[*].headers[*].value: pattern added: "^[!-~]+([\\\\t ]?[!-~]+)*$"; stored values may no longer match',
      );
      // The member's own CEL rules guard a field no stored object has: not reported as new validations.
      expect(found.filter((l) => l.includes("validation-rule-added") && l.includes("externalAuth"))).toEqual([]);
    });

    it("GRPCRoute: rule names must be unique, and parentRefs uniqueness now counts the port", () => {
      const found = findings("gateway.networking.k8s.io_grpcroutes.yaml");
      expect(found.find((f) => f.rule === "validation-rule-added")?.field).toBe("v1 spec.rules");
      expect(found.filter((f) => f.rule === "validation-rule-changed").map((f) => f.field)).toEqual([
        "v1 spec.parentRefs",
        "v1 spec.parentRefs",
      ]);
      expect(found.filter((f) => f.rule === "validation-rule-changed").every((f) => f.detail.includes("port"))).toBe(
        true,
      );
    });

    it("TCPRoute, UDPRoute, TLSRoute: serving v1alpha2 again beside v1 without a webhook", () => {
      for (const name of ["tcproutes", "udproutes", "tlsroutes"]) {
        const found = findings(`gateway.networking.k8s.io_${name}.yaml`);
        expect(found.filter((f) => f.rule === "conversion-missing").length, name).toBe(1);
        // v1 allows one rule where v1alpha2 allowed sixteen: a v1alpha2 object may not be updatable as v1.
        expect(
          found.map((f) => f.message),
          name,
        ).toContain(
          "v1 spec.rules: v1alpha2 → v1 bounds-tightened: maxItems lowered from 16 to 1; stored values above it no longer validate",
        );
      }
      const tls = findings("gateway.networking.k8s.io_tlsroutes.yaml").map((f) => f.message);
      expect(tls).toContain(
        "v1 spec.hostnames: v1alpha2 → v1 required-added: `hostnames` became required; existing objects without it are rejected on their next update",
      );
    });
  });
});

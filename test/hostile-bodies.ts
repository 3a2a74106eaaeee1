/**
 * Request bodies once found to hold kunion's server, shared by the HTTP
 * tests on Node (functions/routes.test.ts) and in workerd
 * (test/workerd/workerd.test.ts), so both faces answer the same input.
 */

/** An anchor whose alias refers to itself: it once looped forever in every command and route. */
export const selfAnchor = "a: &a [*a]\n";

/** The routes that take a YAML body. */
export const yamlRoutes = ["/v1/validate", "/v1/normalize", "/v1/convert", "/v1/admit", "/v1/crd-diff"];

/** A CRD of kind Thing whose spec is a string `s` under one CEL rule. */
export function crdWithRule(rule: string) {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "things.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { kind: "Thing", plural: "things" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: { type: "object", properties: { s: { type: "string" } }, "x-kubernetes-validations": [{ rule }] },
              },
            },
          },
        },
      ],
    },
  };
}

/** A Thing whose `s` is `length` characters of "a". */
export const thing = (length: number) => ({
  apiVersion: "example.com/v1",
  kind: "Thing",
  metadata: { name: "t" },
  spec: { s: "a".repeat(length) },
});

/** A rule whose replace() makes every "a" ten: 400,000 characters built from 40,000. */
export const runawayReplace = { crd: crdWithRule("self.s.replace('a', 'aaaaaaaaaa') != ''"), object: thing(40_000) };

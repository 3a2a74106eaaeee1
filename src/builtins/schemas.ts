/**
 * The schema tables of Kubernetes' own kinds, one per release, generated
 * from npm data by .ci/generate-builtin-schemas.mjs (see `table.ts`). Only
 * the default release's is imported here, so that a bundle carrying the
 * core (the Worker) carries one table; `all-releases.ts` registers the
 * others, and the CLI, the Action and the Node server import it.
 *
 * No npm package carries 1.35's data (no @kubernetes/client-node release
 * was generated from it): 1.35 is checked against 1.36's table, which has
 * every field 1.35 has (Kubernetes adds fields; served versions lose none)
 * and accepts the few 1.36 added.
 */
import type { KubernetesRelease } from "./releases.js";
import type { BuiltinTable } from "./table.js";
import { kindKey } from "./table.js";
import defaultTableText from "./tables/k8s-1-36.generated.js";

/** Which generated table each release is checked against. */
const tableOf: Record<KubernetesRelease, string> = {
  "1.32": "1.32",
  "1.33": "1.33",
  "1.34": "1.34",
  "1.35": "1.36",
  "1.36": "1.36",
};

const texts = new Map<string, string>([["1.36", defaultTableText]]);
const parsed = new Map<string, BuiltinTable>();

/** Makes a generated table available (all-releases.ts). */
export function registerTable(table: string, text: string): void {
  texts.set(table, text);
}

/** The release's table, parsed on first use; undefined when this build does not carry it. */
export function releaseTable(release: KubernetesRelease): BuiltinTable | undefined {
  const name = tableOf[release];
  let table = parsed.get(name);
  if (!table) {
    const text = texts.get(name);
    if (text === undefined) return undefined;
    table = JSON.parse(text) as BuiltinTable;
    parsed.set(name, table);
  }
  return table;
}

/** Which table a release is checked against ("1.36" for 1.35). */
export const tableRelease = (release: KubernetesRelease): string => tableOf[release];

/** Whether the default release has a schema for this kind. */
export function hasBuiltinSchema(apiVersion: string, kind: string): boolean {
  const table = releaseTable("1.36");
  return table !== undefined && Object.hasOwn(table.kinds, kindKey(apiVersion, kind));
}

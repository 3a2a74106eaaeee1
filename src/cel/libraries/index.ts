/**
 * Every function a rule can call, declared once (declaration.ts): the CEL
 * standard library, cel-go's strings extension, and the Kubernetes libraries
 * the API server enables (lists and sets, regex, URL, quantity, IP and CIDR,
 * named formats, optional types, two-variable comprehensions, semver, cel-go's
 * lists extension). Both sides derive from the declarations: the checker's
 * overload table, by the release whose libraries a new expression may use,
 * and the runtime's functions, all of them (an expression already stored runs
 * with every one).
 */
import type { CelFunc } from "@bufbuild/cel";
import { strings } from "@bufbuild/cel/ext";
import { type FunctionTable, functionTable } from "../language/checker.js";
import { COMPREHENSIONS } from "./comprehensions.js";
import type { Declaration } from "./declaration.js";
import { FORMATS } from "./format.js";
import { IPS } from "./ip.js";
import { LIST_EXTENSION } from "./list-extension.js";
import { LISTS } from "./lists.js";
import { OPTIONALS } from "./optional.js";
import { QUANTITIES } from "./quantity.js";
import { REGEX } from "./regex.js";
import { SEMVER } from "./semver.js";
import { STANDARD } from "./standard.js";
import { STRINGS } from "./strings.js";
import { URLS } from "./url.js";

export type { Declaration } from "./declaration.js";

/**
 * The Kubernetes minor whose base CEL environment first has a library
 * (apiserver pkg/cel/environment/base.go, IntroducedVersion), for those newer
 * than the oldest release kunion validates for; the rest are in every one.
 */
export const INTRODUCED = { twoVariableComprehensions: 32, semver: 33, listExtension: 34 } as const;

const DECLARED: ReadonlyArray<{ since: number; declarations: readonly Declaration[] }> = [
  {
    since: 0,
    declarations: [
      ...STANDARD,
      ...STRINGS,
      ...LISTS,
      ...REGEX,
      ...URLS,
      ...QUANTITIES,
      ...IPS,
      ...FORMATS,
      ...OPTIONALS,
    ],
  },
  { since: INTRODUCED.twoVariableComprehensions, declarations: COMPREHENSIONS },
  { since: INTRODUCED.semver, declarations: SEMVER },
  { since: INTRODUCED.listExtension, declarations: LIST_EXTENSION },
];

export const DECLARATIONS: readonly Declaration[] = DECLARED.flatMap((d) => d.declarations);

const tables = new Map<number, FunctionTable>();

/**
 * The overloads the checker resolves calls against, when the libraries are
 * those of Kubernetes minor `libraries` (every one by default).
 */
export function functionsOf(libraries = Number.POSITIVE_INFINITY): FunctionTable {
  const since = Math.max(...DECLARED.map((d) => d.since).filter((s) => s <= libraries));
  let table = tables.get(since);
  if (table === undefined) {
    table = functionTable(
      ...DECLARED.filter((d) => d.since <= since).flatMap((d) => d.declarations.map((x) => x.overloads)),
    );
    tables.set(since, table);
  }
  return table;
}

/** Every overload, as an expression already stored, or one of kunion's own (a conversion's), is checked. */
export const FUNCTIONS: FunctionTable = functionsOf();

/**
 * The runtime's functions, before metering: @bufbuild/cel's strings extension
 * (its standard library comes with every environment), then each function
 * implemented here, which replaces @bufbuild/cel's of the same runtime signature.
 */
export const RUNTIME_FUNCS: readonly CelFunc[] = [...strings, ...DECLARATIONS.flatMap((d) => d.runtime ?? [])];

/** The shapes shared by the declaration reader, the rules and the engine. */
import type { Crd } from "../crd/index.js";
import type { JsonObject } from "../value/index.js";

/** One spoke: pure functions over JSON objects (they may throw a `ConvertError`). */
export interface SpokeConversion {
  toHub(obj: JsonObject): JsonObject;
  fromHub(obj: JsonObject): JsonObject;
}

export interface Conversion {
  group: string;
  kind: string;
  /** The hub version name. */
  hub: string;
  spokes: ReadonlyMap<string, SpokeConversion>;
  /** When known: unknown fields are pruned per version schema (and kept in the annotation). */
  crd?: Crd;
}

/** A data path of dotted property names (`spec.schedule`). */
export type DataPath = readonly string[];

/** A conversion failure at a data path. */
export class ConvertError extends Error {
  constructor(
    readonly path: DataPath,
    message: string,
  ) {
    super(message);
  }
}

/** The TypeScript form of a declaration, for what rules cannot say. */
import type { Crd } from "../crd/index.js";
import type { Conversion, SpokeConversion } from "./types.js";

export interface ConversionDefinition {
  group: string;
  kind: string;
  hub: string;
  spokes: Record<string, SpokeConversion>;
  crd?: Crd;
}

export function defineConversion(def: ConversionDefinition): Conversion {
  const spokes = new Map<string, SpokeConversion>();
  for (const v of Object.keys(def.spokes)) {
    if (v === def.hub) throw new Error(`defineConversion: the hub ${v} cannot also be a spoke`);
    const s = def.spokes[v] as SpokeConversion;
    if (typeof s?.toHub !== "function" || typeof s?.fromHub !== "function")
      throw new Error(`defineConversion: spoke ${v} needs toHub and fromHub functions`);
    spokes.set(v, { toHub: s.toHub, fromHub: s.fromHub });
  }
  return { group: def.group, kind: def.kind, hub: def.hub, spokes, ...(def.crd === undefined ? {} : { crd: def.crd }) };
}

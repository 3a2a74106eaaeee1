import { type Conversion, convert } from "../convert/index.js";
import type { Converters } from "./conversion-review.js";

/** The deployed conversions as the review handler wants them: one converter per group and kind. */
export function convertersFor(conversions: readonly Conversion[]): Converters {
  return {
    forKind(group, kind) {
      const conversion = conversions.find((c) => c.group === group && c.kind === kind);
      if (!conversion) return undefined;
      return {
        convert: (object, toApiVersion) => convert(object, toApiVersion, conversion),
        versions: [conversion.hub, ...conversion.spokes.keys()],
        leavesInputAlone: true,
      };
    },
  };
}

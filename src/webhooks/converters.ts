import { type Conversion, convert } from "../convert/index.js";
import type { Converters } from "./conversion-review.js";

/** The deployed conversions as the review handler wants them: one converter per group and kind. */
export function convertersFor(conversions: readonly Conversion[]): Converters {
  return {
    forKind(group, kind) {
      const conversion = conversions.find((c) => c.group === group && c.kind === kind);
      if (!conversion) return undefined;
      return {
        // the answer is serialized as it is: results may share with the request what they do not change
        convert: (object, toApiVersion) => convert(object, toApiVersion, conversion, { share: true }),
        versions: [conversion.hub, ...conversion.spokes.keys()],
        leavesInputAlone: true,
      };
    },
  };
}

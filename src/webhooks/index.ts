/**
 * Webhooks the API server calls. The conversion webhook (conversion.md §3) answers a
 * `ConversionReview` (apiextensions.k8s.io/v1 or v1beta1) with every object converted to the
 * desired version, in the same order and count, or with one `Failure` naming the first object
 * that could not be converted (all or nothing); objects already at the desired version pass
 * through unchanged. Each converted object is checked as the API server would, but strictly:
 * the desired apiVersion, the same kind, and no change to metadata but labels and annotations
 * (the server would silently reset the rest, so a converter that touches it is refused). A
 * malformed review gets HTTP 400 with `{error, field}` naming the request field at fault. The
 * converters come in as a parameter (`Converters`), so this module is independent of how
 * conversions are declared; it is pure, runtime-agnostic and never throws. The admission
 * webhook (`handleAdmissionReview`) normalizes and validates an `AdmissionReview`'s object,
 * the schemas given as a lookup. Imports convert, unions, findings, names, value, path.
 */

export {
  type AdmissionLookup,
  type AdmissionOptions,
  type AdmissionTarget,
  base64,
  handleAdmissionReview,
  jsonPatch,
  type PatchOperation,
} from "./admission-review.js";
export {
  type Converters,
  type ConvertFn,
  handleConversionReview,
  maxReviewObjects,
  type ReviewAnswer,
} from "./conversion-review.js";
export { convertersFor } from "./converters.js";

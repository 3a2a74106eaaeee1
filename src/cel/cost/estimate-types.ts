/**
 * The shapes of the static cost estimate (cel-go checker/cost.go, as the API server runs it when a CRD is
 * written): ranges of sizes and costs, what the estimator knows of an expression node, a call's estimate.
 * Numbers saturate at MAX (Go's uint64 arithmetic, which never wraps in the estimator).
 */
import type { CelT } from "../language/types.js";

/** math.MaxUint64, as the estimator saturates at it. */
export const MAX = 2 ** 64;

/** A size (a string's characters, bytes' bytes, a list's items, a map's entries) or a cost: its least and most. */
export interface Range {
  min: number;
  max: number;
}

/** An expression node as the estimator sees it (checker.AstNode). */
export interface AstNodeInfo {
  /**
   * Its path through the declared types: a variable, then field names (as CEL names them, escaped), `@items`,
   * `@keys`, `@values` or `@indices`; undefined when it has none (a call's result, an accumulator).
   */
  path: readonly string[] | undefined;
  type: CelT;
  /** The size computed from the expression itself (a literal, a concatenation, a call's result), if any. */
  computedSize: Range | undefined;
}

/** The size of a node reached by `path` from the declared variables (checker.CostEstimator.EstimateSize). */
export type SizeEstimator = (path: readonly string[]) => Range | undefined;

/** A call's cost, and the size of what it makes when that is a string, bytes, list or map (checker.CallEstimate). */
export interface CallEstimate {
  cost: Range;
  resultSize?: Range;
}

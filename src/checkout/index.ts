/**
 * A checkout on disk, as `kunion check` and the GitHub Action see it: git run
 * safely, the changed files and their base revisions, files read only inside
 * the checkout and never through a link, the repository's CRDs, and its
 * configuration. The Node side both faces share, so both check the same files
 * and give the same findings. Imports Node and the core's public API.
 */
export {
  allFiles,
  type Candidates,
  configuredGlobs,
  deletedFiles,
  readGlobbed,
  repositoryCrds,
  type Selection,
  selectFiles,
  workTreeChanges,
} from "./changes.js";
export { type CheckoutChange, type CheckoutResult, checkCheckout } from "./check.js";
export { configFileName, type LoadedConfig, loadConfig, readConfigFile } from "./config.js";
export { type Removals, removalFindings } from "./deleted.js";
export { fileProblem, globInside, maxFileBytes, readInside } from "./files.js";
export {
  type ChangedPath,
  changedBetween,
  checkRef,
  ensureCommit,
  GitError,
  type Hunk,
  readAt,
  resolveCommit,
  topLevel,
} from "./git.js";
export { type ChangedLines, changedLines, inDiff, onChangedLine, placeRemovals, textHunks } from "./lines.js";
export { knownRules } from "./product.js";
export { type Acceptance, accept, baselineText, readBaseline, waiverProblems } from "./waivers.js";

/**
 * What is deployed with the function: CRDs (and SMD schemas) and Conversion declarations,
 * read once when the app is created. A deployed file with errors stops the start, with the
 * findings, rather than serving half a configuration.
 */
import {
  buildCatalog,
  type Catalog,
  type Conversion,
  type Converters,
  convertersFor,
  formatText,
  loadConversions,
  parseSource,
  type TextFile,
} from "../src/index.js";

export interface Deployment {
  catalog: Catalog;
  conversions: Conversion[];
  converters: Converters;
}

export function deploy(crdFiles: readonly TextFile[], conversionFiles: readonly TextFile[]): Deployment {
  const parsed = crdFiles.map((f) => parseSource(f.text, f.path));
  const built = buildCatalog(parsed.flatMap((p) => p.documents));
  const loaded = loadConversions(conversionFiles, built.catalog.crds);
  const errors = [...parsed.flatMap((p) => p.findings), ...built.findings, ...loaded.findings].filter(
    (f) => f.severity === "error",
  );
  if (errors.length > 0) throw new Error(`the deployed configuration has errors:\n${formatText(errors)}`);
  return { catalog: built.catalog, conversions: loaded.conversions, converters: convertersFor(loaded.conversions) };
}

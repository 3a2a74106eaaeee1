/**
 * Timing for the benchmarks: medians over repeated passes after a warm-up,
 * so one garbage collection does not decide a figure. Only ratios between
 * timings taken in the same run are reported.
 */
import { parseAllDocuments } from "yaml";

const sortedMedian = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Median milliseconds of one pass of `run`, over passes repeated for `forMs` after a warm-up. */
export function median(run: () => void, forMs = 1000): number {
  for (let warm = performance.now(); performance.now() - warm < Math.min(300, forMs / 3); ) run();
  const times: number[] = [];
  for (let start = performance.now(); performance.now() - start < forMs || times.length < 5; ) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  return sortedMedian(times);
}

/** Medians of `a` and `b` run alternately, pass for pass, so both meet the same garbage and CPU state. */
export function medianPair(a: () => void, b: () => void, forMs = 2000): [number, number] {
  for (let warm = performance.now(); performance.now() - warm < 300; ) {
    a();
    b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let start = performance.now(); performance.now() - start < forMs || ta.length < 5; ) {
    let t = performance.now();
    a();
    ta.push(performance.now() - t);
    t = performance.now();
    b();
    tb.push(performance.now() - t);
  }
  return [sortedMedian(ta), sortedMedian(tb)];
}

/**
 * The baseline the ratios are against: every document of a text parsed to a
 * value by the `yaml` package, as any tool that reads YAML must at least do
 * (bench/parse-only.ts does the same for the cold runs). Not kunion's own
 * reader, whose speed is one of the things measured.
 */
export function parseYaml(text: string): number {
  let documents = 0;
  // Warnings silenced: a key that is a collection (one corpus example has one) is stringified, not an error.
  for (const doc of parseAllDocuments(text, { logLevel: "error" })) {
    if ("toJS" in doc) doc.toJS({ maxAliasCount: -1 });
    documents++;
  }
  return documents;
}

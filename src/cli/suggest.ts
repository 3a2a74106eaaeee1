/** Usage errors in the user's terms: the nearest known spelling of a mistyped command or option. */

/** Levenshtein distance, with a swap of two neighbouring letters counted as one edit. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  const row0 = rows[0] as number[];
  for (let j = 0; j <= b.length; j++) row0[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    const prev = rows[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (rows[i - 2]?.[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return rows[a.length]?.[b.length] as number;
}

/**
 * The known word nearest to `given`: within two edits (one for words of up to
 * four letters), or one `given` begins (`--ignore-missing` for
 * `--ignore-missing-schemas`). Undefined when nothing is close.
 */
export function nearest(given: string, known: readonly string[]): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const word of known) {
    const distance = editDistance(given, word);
    if (best === undefined || distance < best.distance) best = { word, distance };
  }
  const limit = given.length <= 4 ? 1 : 2;
  if (best !== undefined && best.distance <= limit) return best.word;
  const prefixed = known.filter((w) => given.length >= 3 && w.startsWith(given));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** `; did you mean X?` or nothing. */
export const didYouMean = (given: string, known: readonly string[], show: (w: string) => string = (w) => w) => {
  const word = nearest(given, known);
  return word === undefined ? "" : `: did you mean ${show(word)}?`;
};

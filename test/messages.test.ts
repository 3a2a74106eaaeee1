import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

// docs/messages.md lists every message kunion prints next to the API-server message it mirrors.
// Where a row claims the API server's words, its `checked` column says they were compared with the
// Kubernetes source it names (`verified`, with the releases where they differ), or that the words
// are kunion's own (`own`). A row without that column has not been checked.
const text = readFileSync(join(import.meta.dirname, "../docs/messages.md"), "utf8");
const sections = text.split(/^## /m).slice(1);
const checkedSections = sections.filter((s) => !s.startsWith("Rule ids") && !s.startsWith("Hand-written"));

const cells = (row: string) =>
  row
    .replaceAll("\\|", "\u0000")
    .split("|")
    .slice(1, -1)
    .map((c) => c.replaceAll("\u0000", "|").trim());

it("every message row of docs/messages.md is marked verified against its source, or kunion's own", () => {
  const unmarked: string[] = [];
  let rows = 0;
  for (const section of checkedSections) {
    const table = section.split("\n").filter((l) => l.startsWith("|"));
    const [header, , ...body] = table;
    if (!header) continue;
    expect(cells(header).at(-1), `the last column of ${section.split("\n")[0]}`).toBe("checked");
    for (const row of body) {
      rows++;
      const checked = cells(row).at(-1) ?? "";
      if (!/^(verified|own)\b/.test(checked)) unmarked.push(row.slice(0, 80));
    }
  }
  expect(rows).toBeGreaterThan(60);
  expect(unmarked).toEqual([]);
});

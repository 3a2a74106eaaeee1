import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { changedBetween, readBlobs } from "./git.js";
import { gitRepository } from "./testing.js";

const repository = () => gitRepository("kunion-git-");

describe("the changed files between two commits", () => {
  it("name each file's blob at the base, by which its text there is read; an added file has none", () => {
    const { ws, git } = repository();
    const moved = Array.from({ length: 20 }, (_, i) => `key${i}: value ${i}`).join("\n");
    writeFileSync(join(ws, "edited.yaml"), "a: 1\n");
    writeFileSync(join(ws, "gone.yaml"), "b: 2\n");
    writeFileSync(join(ws, "old-name.yaml"), `${moved}\n`);
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    const base = git("rev-parse", "HEAD");
    writeFileSync(join(ws, "edited.yaml"), "a: 2\n");
    writeFileSync(join(ws, "added.yaml"), "c: 3\n");
    git("rm", "-q", "gone.yaml");
    git("mv", "old-name.yaml", "new-name.yaml");
    git("add", "-A");
    git("commit", "-q", "-m", "head");
    const blob = (path: string) => git("rev-parse", `${base}:${path}`);

    const { changes, deleted } = changedBetween(ws, base, "HEAD");
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect([...changes].sort(byPath)).toEqual([
      { path: "added.yaml", baseBlob: undefined },
      { path: "edited.yaml", baseBlob: blob("edited.yaml") },
      { path: "new-name.yaml", from: "old-name.yaml", baseBlob: blob("old-name.yaml") },
    ]);
    expect(deleted).toEqual([{ path: "gone.yaml", baseBlob: blob("gone.yaml") }]);

    const ids = [blob("edited.yaml"), blob("gone.yaml"), "0".repeat(40)];
    const texts = readBlobs(ws, ids, 1024);
    expect(ids.map((id) => texts.get(id)?.toString("utf8"))).toEqual(["a: 1\n", "b: 2\n", undefined]);
    expect(readBlobs(ws, [blob("old-name.yaml")], 10).get(blob("old-name.yaml"))).toBeUndefined();
    rmSync(ws, { recursive: true, force: true });
  });
});

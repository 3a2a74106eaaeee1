// Preloaded into a measured process (node --import): at exit, its CPU time and
// peak memory go to the file KUNION_USAGE_FILE names.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  const u = process.resourceUsage();
  writeFileSync(
    process.env.KUNION_USAGE_FILE,
    JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKiB: u.maxRSS }),
  );
});

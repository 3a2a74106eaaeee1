import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "functions/**/*.test.ts", "action/**/*.test.ts"],
    testTimeout: 20_000,
  },
});

import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          include: ["src/**/*.test.ts", "test/**/*.test.ts", "functions/**/*.test.ts", "action/**/*.test.ts"],
          // The workerd lane is its own project (below).
          exclude: [...configDefaults.exclude, "test/workerd/**"],
        },
      },
      {
        // The Worker in workerd, where code generation is forbidden: wrangler dev on
        // loopback, driven from Node (test/workerd/workerd.test.ts).
        extends: true,
        test: { name: "workerd", include: ["test/workerd/**/*.test.ts"] },
      },
    ],
  },
});

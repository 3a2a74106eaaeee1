/** The Action's entry, what action/dist/index.js is bundled from: the runner starts it, it runs once. */
import { run } from "./main.js";

await run();

/**
 * Registers every release's schema table. Imported by the faces that choose
 * among releases (CLI, Action, Node server); the Worker leaves it out and
 * carries the default release's table alone (the 1 MiB bundle limit).
 */
import { registerTable } from "./schemas.js";
import k8s132 from "./tables/k8s-1-32.generated.js";
import k8s133 from "./tables/k8s-1-33.generated.js";
import k8s134 from "./tables/k8s-1-34.generated.js";

registerTable("1.32", k8s132);
registerTable("1.33", k8s133);
registerTable("1.34", k8s134);

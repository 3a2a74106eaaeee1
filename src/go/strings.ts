/** Go's strings.TrimSpace: Unicode white space (unicode.IsSpace), which has U+0085 and lacks U+FEFF where JavaScript's trim does not. */
const space = "[\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+";
const edges = new RegExp(`^${space}|${space}$`, "g");

export const trimSpace = (text: string): string => text.replace(edges, "");

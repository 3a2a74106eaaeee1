/**
 * The GitHub API client of the Action's two calls (the pull-request files
 * fallback, the fixes review): @actions/github's, whose defaults route its
 * requests through the runner's proxy settings (http_proxy, https_proxy,
 * no_proxy). Constructor options replace those defaults' `request` whole,
 * proxy and all, so a call's time limit goes with the call (`apiCall`).
 */
import { getOctokit } from "@actions/github";
import { GitHub } from "@actions/github/lib/utils";
import type { RunContext } from "./inputs.js";

/** Authenticated with `token`, or anonymous without one (a public repository's files). */
export const apiClient = (ctx: RunContext, token: string) =>
  token ? getOctokit(token, { baseUrl: ctx.apiUrl }) : new GitHub({ baseUrl: ctx.apiUrl });

/** A call's `request` option: given up after a minute (for a listing, all its pages). */
export const apiCall = () => ({ signal: AbortSignal.timeout(60_000) });

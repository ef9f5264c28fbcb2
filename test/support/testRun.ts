import { afterAll } from "bun:test";
import { stopTestPgServer } from "./pgTestDatabase.ts";

/**
 * Hooks of the whole test run (bunfig.toml preloads this file): what test files share and
 * start lazily is stopped once, after the last file.
 */
afterAll(() => stopTestPgServer());

/**
 * Temporary folders of the tests and the benchmark: the one place that makes them. Under Jest
 * each is made in the run's own folder (jest.config.js sets ARCGIS_ADMIN_TEST_TMP), which
 * tests/global-teardown.cjs removes with whatever a test left in it; outside a Jest run, under
 * the OS's temporary folder.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * A new, empty folder whose name starts with `prefix`: in the run's folder, or in `parent` (a
 * folder that is itself temporary, e.g. a consumer project) when given.
 *
 * @example `const downloads = runTempDir("site-export-")`
 */
export function runTempDir(prefix: string, parent?: string): string {
  const under = parent ?? process.env.ARCGIS_ADMIN_TEST_TMP ?? os.tmpdir();
  fs.mkdirSync(under, { recursive: true });
  return fs.mkdtempSync(path.join(under, prefix));
}

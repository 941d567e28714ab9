"use strict";
/**
 * The child process of host-memory.test.ts: what Pulumi's dynamic-provider host runs for a fleet,
 * without the engine. It loads the built providers of Site, SiteExport and LogSettings (the
 * modules the host deserializes), then, site after site, drives each site's three resources
 * through the engine's lifecycle: `up` (check, create), an unchanged `up` (check, diff),
 * `refresh` (read) and `destroy` (delete, dependents first). Every value reaches a provider as
 * the engine hands it over, decoded afresh for each call and its secrets unwrapped, so nothing is
 * shared between calls that the host would not share. The test process runs the emulators; over
 * IPC this process asks it for site i's admin URL (`{ site: i }`), says when site i is done
 * (`{ done: i }`) and, after the site counts the test names, sends its memory readings.
 *
 * Environment: REPO_ROOT, HOST_MEMORY_CA (the CA certificate's file), HOST_MEMORY_DOWNLOADS (the
 * folder of the exports' downloads), HOST_MEMORY_READ_AT (JSON list of site counts, ascending),
 * HOST_MEMORY_TOKEN_CACHE_LIMIT (the limit given to the process-wide token cache).
 */
const fs = require("node:fs");
const path = require("node:path");
const { setTimeout: sleep } = require("node:timers/promises");

const dist = path.join(process.env.REPO_ROOT, "dist", "provider", "resources");
const { isSecretEnvelope } = require(path.join(dist, "common", "pulumi", "secrets.js"));
const providers = {
  site: require(path.join(dist, "site", "provider.js")),
  siteExport: require(path.join(dist, "site-export", "provider.js")),
  logSettings: require(path.join(dist, "log-settings", "provider.js")),
};
require(
  path.join(process.env.REPO_ROOT, "dist", "provider", "client", "auth.js"),
).sharedTokenCache.limitTo(Number(process.env.HOST_MEMORY_TOKEN_CACHE_LIMIT));
const caCert = fs.readFileSync(process.env.HOST_MEMORY_CA, "utf8");
const downloads = process.env.HOST_MEMORY_DOWNLOADS;
const readAt = JSON.parse(process.env.HOST_MEMORY_READ_AT);

/** A value as the engine hands it to the host: a fresh copy, secrets unwrapped. */
function fromEngine(value) {
  return JSON.parse(JSON.stringify(value), (_key, v) => (isSecretEnvelope(v) ? v.value : v));
}

/** Sends a message to the test process and waits for its answer. */
function ask(message) {
  return new Promise((resolve) => {
    process.once("message", resolve);
    process.send(message);
  });
}

/** `pulumi up` of one resource: check, then create with the checked inputs. */
async function up(kind, news) {
  const checked = await providers[kind].check({}, fromEngine(news));
  if ((checked.failures ?? []).length > 0) {
    throw new Error(`${kind} check failed: ${JSON.stringify(checked.failures)}`);
  }
  const { id, outs } = await providers[kind].create(fromEngine(checked.inputs));
  return { kind, id, inputs: checked.inputs, outs };
}

async function oneSite(i, adminUrl) {
  const tls = { caCert };
  const site = await up("site", { adminUrl, username: "siteadmin", password: "site-Fleet-1", tls });
  const connection = {
    adminUrl: site.outs.adminUrl,
    username: site.outs.username,
    password: site.outs.password,
    tls,
  };
  const resources = [
    site,
    await up("siteExport", { ...connection, downloadTo: path.join(downloads, `site-${i}`) }),
    await up("logSettings", { ...connection, logLevel: "WARNING" }),
  ];
  for (const r of resources) {
    const checked = await providers[r.kind].check(fromEngine(r.inputs), fromEngine(r.inputs));
    const diff = await providers[r.kind].diff(r.id, fromEngine(r.outs), fromEngine(checked.inputs));
    if (diff.changes) throw new Error(`${r.kind} of site ${i} changed: ${JSON.stringify(diff)}`);
  }
  for (const r of resources) {
    r.outs = (await providers[r.kind].read(r.id, fromEngine(r.outs))).props;
  }
  for (const r of resources.reverse()) {
    await providers[r.kind].delete(r.id, fromEngine(r.outs));
  }
}

/** Bytes in use after full collections: the median of a few readings, each after a pause. */
async function reading() {
  const samples = [];
  for (let k = 0; k < 5; k++) {
    await sleep(20);
    for (let g = 0; g < 3; g++) global.gc();
    samples.push(process.memoryUsage());
  }
  const median = (key) => samples.map((s) => s[key]).sort((a, b) => a - b)[2];
  return { heapUsed: median("heapUsed"), external: median("external") };
}

(async () => {
  const readings = [];
  let done = 0;
  for (const sites of readAt) {
    for (; done < sites; done++) {
      const { adminUrl } = await ask({ site: done });
      await oneSite(done, adminUrl);
      await ask({ done });
    }
    readings.push({ sites, ...(await reading()) });
  }
  process.send({ readings });
})().catch((error) => {
  console.error(error);
  process.exit(1);
});

"use strict";
/**
 * The Pulumi program of bench figure 10 (bench/figures/fleet.ts), copied into the benchmark's
 * consumer project so that `pulumi-arcgis-admin` resolves to the packed package. Stack config
 * (project namespace) chooses what it declares:
 * - mode "empty": nothing (the engine's floor);
 * - mode "trivial": one resource of the bench's own trivial dynamic provider;
 * - mode "floor": `count` groups of three trivial resources, the second and third taking the
 *   first's id, the same dependency shape as a site's three resources (the floor fleet); with
 *   `padBytes`, each also records a string of that many bytes as an input (so twice: in its
 *   inputs and its outputs), which makes its state entry the size of a site's resources;
 * - mode "fleet": `count` sites, each a Site, its SiteExport and its LogSettings, the Site at
 *   `adminUrls[i]` (JSON list), all trusting the certificate of config key `caCert` by its key
 *   (`tls.caCertConfig`; with `caInline`, the certificate itself as `tls.caCert`), with the
 *   password `sitePassword` (secret). This is the loop over a config list that docs/fleet.md
 *   describes.
 */
const pulumi = require("@pulumi/pulumi");

/** A dynamic provider that does nothing but answer an id: the engine's own per-resource cost. */
const trivialProvider = {
  async create(inputs) {
    return { id: `trivial-${inputs.name}`, outs: inputs };
  },
};

class Trivial extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(trivialProvider, name, { name, ...args }, opts);
  }
}

module.exports = () => {
  const config = new pulumi.Config();
  const mode = config.require("mode");
  const count = config.getNumber("count") ?? 1;
  if (mode === "empty") return {};
  if (mode === "trivial") {
    new Trivial("trivial", {});
    return {};
  }
  if (mode === "floor") {
    const padBytes = config.getNumber("padBytes") ?? 0;
    const pad = padBytes > 0 ? { pad: "x".repeat(padBytes) } : {};
    for (let i = 0; i < count; i++) {
      const first = new Trivial(`a-${i}`, { ...pad });
      new Trivial(`b-${i}`, { of: first.id, ...pad });
      new Trivial(`c-${i}`, { of: first.id, ...pad });
    }
    return {};
  }
  if (mode !== "fleet") throw new Error(`unknown mode ${mode}`);
  // Loaded only here, so that the floor's programs never load the package.
  const { LogSettings, Site, SiteExport } = require("pulumi-arcgis-admin");
  const adminUrls = config.requireObject("adminUrls");
  const tls = config.getBoolean("caInline")
    ? { caCert: config.require("caCert") }
    : { caCertConfig: "caCert" };
  const password = config.requireSecret("sitePassword");
  adminUrls.forEach((adminUrl, i) => {
    const site = new Site(`site-${i}`, { adminUrl, username: "siteadmin", password, tls });
    const connection = {
      adminUrl: site.adminUrl,
      username: site.username,
      password: site.password,
      tls,
    };
    new SiteExport(`backup-${i}`, { ...connection, downloadTo: `backups/site-${i}` });
    new LogSettings(`logs-${i}`, { ...connection, logLevel: "WARNING" });
  });
  return {};
};

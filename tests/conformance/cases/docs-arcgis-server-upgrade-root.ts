import type { ConformanceCase } from "../corpus";

/** While an ArcGIS Server site waits for its upgrade, its admin root reports the upgrade's status (no token). */
export const docsArcgisServerUpgradeRoot: ConformanceCase = {
  name: "docs-arcgis-server-upgrade-root",
  serverType: "arcgis-server",
  version: "11.3",
  upgradeFrom: "11.1",
  sources: [
    {
      url: "https://developers.arcgis.com/rest/enterprise-administration/server/upgrade",
      states:
        "the upgrade operation is available only while a server machine is being upgraded; an asynchronous upgrade can be polled by making a request to the root resource",
    },
  ],
  given: "upgrade-required",
  request: {
    method: "GET",
    path: "/admin/",
    params: { f: "json" },
  },
  answer: {
    httpStatus: 200,
    body: { upgradeStatus: "UPGRADE_REQUIRED" },
  },
  client: {
    operation: "none",
    why: "The provider manages no upgrade; the case is evidence for the emulator only.",
  },
  assumptions: [
    "That the root reports the upgrade's status (the upgrade resource's document) before the upgrade runs too, and without a token: the docs speak of polling the root during an asynchronous upgrade.",
  ],
};

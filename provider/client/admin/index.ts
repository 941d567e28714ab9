/** Operations of the mission server's administrative API, one per file. */
export * from "./siteStatus";
export * from "./createNewSite";
export * from "./healthCheck";
export * from "./exportSite";
export * from "./downloadExport";
export * from "./deleteSite";
export * from "./listMachines";
export * from "./getLogSettings";

/** Operations of the administrative API of ArcGIS Server, Mission, Notebook and Video Server, one per file. */
export * from "./siteStatus";
export * from "./createNewSite";
export * from "./healthCheck";
export * from "./serverInfo";
export * from "./waitForServer";
export * from "./waitForSite";
export * from "./exportSite";
export * from "./downloadExport";
export * from "./deleteSite";
export * from "./listMachines";
export * from "./getLogSettings";
export * from "./editLogSettings";
export * from "./getConfigStore";
export * from "./listDirectories";
export * from "./joinSite";
export * from "./unregisterMachine";
export * from "./waitForJoin";

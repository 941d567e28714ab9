/**
 * pulumi-arcgis-admin: Pulumi dynamic resources that administer ArcGIS Enterprise.
 *
 * @packageDocumentation
 */
export * from "./resources";
export * from "./client";

/**
 * pulumi-arcgis-admin: Pulumi dynamic resources that administer ArcGIS Enterprise.
 *
 * @packageDocumentation
 */
import "./node-version";
export * from "./resources";
export * from "./client";

/**
 * pulumi-arcgis-admin: Pulumi dynamic resources that administer ArcGIS Enterprise.
 *
 * @packageDocumentation
 */
import "./node-version";
export * from "./resources";
export * from "./client";
// The resource, not the client's type of the same name (that stays under pulumi-arcgis-admin/dist/provider/client).
export { LogSettings } from "./resources";

/**
 * `SystemProperties`: some of a server's system properties (`system/properties`,
 * `system/properties/update`) kept as declared, as a Pulumi dynamic resource with an in-place
 * update, by the one rule of kept settings (`common/kept/lifecycle.ts`): this file names the
 * properties, the outputs and the calls. The server's update replaces the whole set ("The update
 * operation overwrites all existing properties"), so every write reads the set again, changes the
 * declared properties and sends every other one back as read, as Chef's
 * `update_system_properties` and the ArcGIS API for Python's setter do. A declared property the
 * server did not have is recorded as added (`addedProperties`), and removed again on restore.
 * Its inputs, class and frame derive from `definition.ts`.
 */
import { getSystemProperties, updateSystemProperties } from "../../client";
import { keptSettings } from "../common/kept/lifecycle";
import { withChange } from "../common/kept/write";
import { SYSTEM_PROPERTIES } from "./definition";
import type { SystemPropertiesInputs } from "./generated";
import type { ManagedSystemProperties } from "./values";

/**
 * The SystemProperties implementation the host runs; tests call it directly.
 *
 * @internal
 */
export const implementation = keptSettings<SystemPropertiesInputs>({
  frame: SYSTEM_PROPERTIES,
  settings: "system properties",
  setting: "system property",
  path: "system/properties",
  update: "system/properties/update",
  outputs: {
    previous: "previousProperties",
    added: "addedProperties",
    written: "writtenProperties",
    server: "serverProperties",
  },
  declared: (inputs) => inputs.properties,
  // A property the server no longer holds as a plain value leaves the recorded inputs.
  asInputs: (settings) => ({ properties: settings as ManagedSystemProperties }),
  read: getSystemProperties,
  // Read again on each attempt: a property another client changed meanwhile goes back as it is.
  send: async (session, change) => {
    await updateSystemProperties(session, withChange(await getSystemProperties(session), change));
  },
});

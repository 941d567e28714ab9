/**
 * Every input and output of a `SystemProperties`, defined once: the Args, the class's outputs, the
 * public types, the zod schema, the diff's lists, the plugin schema and
 * docs/system-properties.md's table are derived from it.
 */
import { z } from "zod";
import {
  adminTlsInput,
  CHANGE_LIMIT,
  inPlaceAdminInputs,
  timeoutsInput,
} from "../common/inputs/admin";
import { defineResource, named } from "../common/inputs/definition";
import { resourceFrame } from "../common/pulumi/frame";
import type { SystemPropertiesInputs } from "./generated";

/** The declared properties: names as the server keeps them, plain scalar values. */
function propertiesSchema() {
  return named(
    z.record(
      z.string().trim().min(1, { message: "a property name must not be empty" }),
      z.union([z.string(), z.number(), z.boolean()], {
        message: "must be a string, a number or a boolean",
      }),
    ),
    { name: "ManagedSystemProperties", from: "./values" },
  );
}

/**
 * Some of a server's system properties, kept as declared with
 * `POST {admin_root}/system/properties/update`. The server's update replaces the whole set, so
 * the resource reads it, changes only the declared properties and sends every other one back as
 * read. A change is an update in place.
 *
 * @example
 * ```ts
 * new SystemProperties("properties", {
 *   adminUrl: site.adminUrl,
 *   username: site.username,
 *   password: site.password,
 *   properties: { WebContextURL: "https://gis.example.com/server" },
 *   restoreOnDestroy: true,
 * });
 * ```
 *
 * @internal
 */
export const SYSTEM_PROPERTIES_DEFINITION = defineResource({
  type: "SystemProperties",
  folder: "system-properties",
  doc:
    "Some of a server's system properties (system/properties/update), kept as declared; the " +
    "others are sent back as the server has them. Restored on destroy if asked.",
  base: "ServerResourceArgs",
  argsDoc:
    "Arguments of a {@link SystemProperties}: the server's connection ({@link ServerResourceArgs}) " +
    "and the properties to keep. Every field accepts a `pulumi.Input`.",
  imports: ['import type { ReportedSystemProperties } from "./values";'],
  publicExports: {
    "./values": ["type ManagedSystemProperties", "type ReportedSystemProperties"],
  },
  apiNote: "the last two are the shapes of its `properties` input and of its recorded properties",
  inputs: {
    ...inPlaceAdminInputs(),
    properties: {
      schema: propertiesSchema,
      doc:
        'The properties to keep, e.g. `{ WebContextURL: "https://gis.example.com/server" }`. ' +
        "Only these are managed: every other property the server has is sent back unchanged.",
      outputDoc: "The managed properties (after a refresh: the server's values).",
    },
    restoreOnDestroy: {
      schema: () => z.boolean().default(false),
      doc:
        "On destroy, put back what the managed properties were before this stack set them " +
        "(`previousProperties`; a property that did not exist is removed).",
      outputDoc: "Whether destroy puts back `previousProperties`.",
      stateOnly: true,
    },
    tls: adminTlsInput(),
    timeouts: timeoutsInput(
      {
        changeMs: CHANGE_LIMIT,
      },
      "How long a change may take, including waiting while an export or import holds the site.",
    ),
  },
  outputs: {
    previousProperties: {
      type: "ReportedSystemProperties",
      doc:
        "The values the managed properties had before this stack first set them: what " +
        "`restoreOnDestroy` puts back.",
    },
    addedProperties: {
      type: "string[]",
      doc: "The managed properties the server did not have before: what `restoreOnDestroy` removes.",
    },
    writtenProperties: {
      type: "ReportedSystemProperties",
      doc:
        "The last value this stack wrote to each managed property (a refresh never changes it): " +
        "`restoreOnDestroy` restores a property only while the server still holds this value.",
      optional: true,
    },
    serverProperties: {
      type: "ReportedSystemProperties",
      doc: "The managed properties as the server last reported them (after create, update or refresh).",
    },
  },
  operation: "`POST {admin_root}/system/properties/update`",
  summary:
    "Keeps the declared system properties (e.g. `WebContextURL`); sends the others back as read.",
  connection: "server",
  deleteBeforeReplace: true,
});

/**
 * The frame of a `SystemProperties`, derived from its definition: its input rules and reader, the lists
 * its diff reads and the default diff (common/pulumi/frame.ts).
 *
 * @internal
 */
export const SYSTEM_PROPERTIES = resourceFrame<SystemPropertiesInputs>()(
  SYSTEM_PROPERTIES_DEFINITION,
);

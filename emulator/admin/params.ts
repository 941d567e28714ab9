/**
 * Parameter parsing of createNewSite and logs/settings/edit, per product dialect: strict
 * JSON, errors that name the field, the other dialect's form refused with a message that
 * says which form this product takes, and the defaults a real server applies when a
 * parameter is left out.
 */
import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { AdminError } from "../core/http";
import { CARBON_CONFIG_STORE_CLASSES, type Product, type ServerProfile } from "../core/products";
import {
  CLEANUP_MODES,
  CONFIG_STORE_TYPES,
  LOG_LEVELS,
  type ConfigStoreRecord,
  type DirectoryRecord,
  type LogSettings,
} from "../core/state";

/** Log settings of a site created without log settings. */
export function defaultLogSettings(product: Product): LogSettings {
  return {
    logLevel: "WARNING",
    logDir: `${product.installRoot}/logs`,
    maxErrorReportsCount: 10,
    maxLogFileAge: 90,
    usageMeteringEnabled: false,
  };
}

/** The config store of a site created without `configStoreConnection`: the install dir. */
function defaultConfigStore(product: Product): ConfigStoreRecord {
  return {
    type: "FILESYSTEM",
    connectionString: `${product.installRoot}/config-store`,
    localRepositoryPath: product.dialect === "classic" ? `${product.installRoot}/local` : null,
    className: product.dialect === "carbon" ? CARBON_CONFIG_STORE_CLASSES.FILESYSTEM : null,
    username: null,
  };
}

/** Server directories of a site created without `directories`: created locally. */
function defaultDirectories({ product, version }: ServerProfile): DirectoryRecord[] {
  return product.defaultDirectories(version).map(([name, directoryType]) => {
    const cleaned = product.dialect === "classic" && directoryType === "OUTPUT";
    return {
      name,
      physicalPath: `${product.installRoot}/directories/${name}`,
      directoryType: directoryType as DirectoryRecord["directoryType"],
      cleanupMode: cleaned ? "TIME_ELAPSED_SINCE_LAST_MODIFIED" : "NONE",
      maxFileAge: cleaned ? 10 : 0,
      description: "",
    };
  });
}

// Objects are loose (unknown members ignored, as a real server does with what it does not
// know), but every member the emulator uses is checked, and enums are exact.
const ClassicConfigStoreParam = z.object({
  type: z.enum(CONFIG_STORE_TYPES),
  connectionString: z.string().min(1),
  localRepositoryPath: z.string().min(1).optional(),
  // Cloud stores send a secret; accepted, never stored.
  connectionSecret: z.string().optional(),
});

const CarbonConfigStoreParam = z
  .object({
    configPersistenceType: z.enum(CONFIG_STORE_TYPES),
    connectionString: z.string().min(1),
    className: z.string().min(1),
    // Cloud stores: the account and its key or secret (DSC); the password is never stored.
    username: z.string().optional(),
    password: z.string().optional(),
  })
  .superRefine((store, ctx) => {
    const expected = CARBON_CONFIG_STORE_CLASSES[store.configPersistenceType];
    if (store.className !== expected) {
      ctx.addIssue({
        code: "custom",
        path: ["className"],
        message: `a ${store.configPersistenceType} store takes the class '${expected}'`,
      });
    }
  });

function uniqueNames(
  dirs: ReadonlyArray<{ name: string }>,
  ctx: z.RefinementCtx,
  prefix: Array<string | number>,
): void {
  const seen = new Set<string>();
  dirs.forEach((dir, i) => {
    if (seen.has(dir.name.toLowerCase())) {
      ctx.addIssue({
        code: "custom",
        path: [...prefix, i, "name"],
        message: "duplicate directory name",
      });
    }
    seen.add(dir.name.toLowerCase());
  });
}

function classicDirectoriesParam(types: readonly string[]) {
  return z
    .object({
      directories: z.array(
        z.object({
          name: z.string().min(1),
          // Any non-empty string: paths are recorded, not created, so C:\ and \\server paths are fine.
          physicalPath: z.string().min(1),
          directoryType: z
            .string()
            .refine((t) => types.includes(t), { message: `use one of ${types.join(", ")}` })
            .transform((t) => t as DirectoryRecord["directoryType"]),
          cleanupMode: z.enum(CLEANUP_MODES).default("NONE"),
          maxFileAge: z.number().int().min(0).default(0),
          description: z.string().default(""),
        }),
      ),
    })
    .superRefine((param, ctx) => {
      uniqueNames(param.directories, ctx, ["directories"]);
      // ArcGIS Server docs: exactly one SYSTEM directory.
      const systems = param.directories.filter((d) => d.directoryType === "SYSTEM").length;
      if (systems !== 1) {
        ctx.addIssue({
          code: "custom",
          path: ["directories"],
          message: `exactly one directory of type SYSTEM is required, got ${systems}`,
        });
      }
    });
}

function carbonDirectoriesParam(types: readonly string[], where: string) {
  return z
    .array(
      z.object({
        name: z.string().min(1),
        path: z.string().min(1),
        type: z.string().refine((t) => types.includes(t), {
          message: `${where} takes ${types.join(", ")}`,
        }),
        // Chef adds a random UUID to each directory; accepted and ignored.
        id: z.string().optional(),
      }),
    )
    .superRefine((dirs, ctx) => uniqueNames(dirs, ctx, []));
}

const LogSettingsParam = z.object({
  logLevel: z.enum(LOG_LEVELS).optional(),
  logDir: z.string().min(1).optional(),
  maxErrorReportsCount: z.number().int().min(0).optional(),
  maxLogFileAge: z.number().int().min(0).optional(),
});

const CarbonLogSettingsParam = LogSettingsParam.extend({
  // DSC sends it (`usageMeteringEnabled = $False`).
  usageMeteringEnabled: z.boolean().optional(),
});

/** A validated createNewSite request. */
export interface CreateSiteInput {
  readonly username: string;
  readonly password: string;
  readonly configStore: ConfigStoreRecord;
  readonly directories: DirectoryRecord[];
  readonly logSettings: LogSettings;
  /** `runAsync` (ArcGIS Server) or `async` (Mission, Notebook, Video Server). */
  readonly runAsync: boolean;
}

function present(params: ReadonlyMap<string, string>, name: string): string | undefined {
  const value = params.get(name);
  return value === undefined || value.trim() === "" ? undefined : value;
}

/**
 * Parses a JSON parameter. Malformed JSON answers code 500 with the JSON parser's own
 * message, as a real server does.
 */
function jsonParam(name: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AdminError(500, [
      `Unable to parse the parameter '${name}': ${(error as Error).message}`,
    ]);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A JSON-object parameter; anything else is the error a Java JSONObject parser gives. */
function jsonObject(name: string, text: string, hint = ""): Record<string, unknown> {
  const value = jsonParam(name, text);
  if (!isObject(value)) {
    throw new AdminError(500, [
      `A JSONObject text must begin with '{' at character 1 of the parameter '${name}'.${hint}`,
    ]);
  }
  return value;
}

function validated<T>(schema: z.ZodType<T>, name: string, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new AdminError(
    400,
    result.error.issues.map((issue) => {
      const field = [
        name,
        ...issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)),
      ].join("");
      return `Invalid value for '${field}': ${issue.message}`;
    }),
  );
}

function withoutUndefined<T extends object>(
  base: T,
  overrides: { [K in keyof T]?: T[K] | undefined },
): T {
  const result = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) (result as Record<string, unknown>)[key] = value;
  }
  return result;
}

/** Reads a boolean parameter the way real servers do: true/false in any letter case. */
export function booleanParam(params: ReadonlyMap<string, string>, name: string): boolean {
  const text = present(params, name)?.trim();
  if (text === undefined) return false;
  if (/^true$/i.test(text)) return true;
  if (/^false$/i.test(text)) return false;
  throw new AdminError(400, [`Invalid value for parameter '${name}': use true or false.`]);
}

/** The other dialect's parameter: refused, saying which one this product takes. */
function refuseParam(
  params: ReadonlyMap<string, string>,
  name: string,
  instead: string,
  product: Product,
  otherProducts: string,
): void {
  if (params.has(name)) {
    throw new AdminError(400, [
      `The parameter '${name}' is not a parameter of createNewSite on ${product.name}: it takes '${instead}' ('${name}' is the form of ${otherProducts}).`,
    ]);
  }
}

const CARBON_PRODUCTS = "Mission, Notebook and Video Server";

function credentials(params: ReadonlyMap<string, string>): { username: string; password: string } {
  const username = present(params, "username");
  const password = present(params, "password");
  if (username === undefined || password === undefined) {
    throw new AdminError(
      400,
      [
        ...(username === undefined ? ["username"] : []),
        ...(password === undefined ? ["password"] : []),
      ].map((name) => `The parameter '${name}' is required to create a site.`),
    );
  }
  return { username, password };
}

/**
 * Validates every createNewSite parameter in the product's own dialect; throws an
 * {@link AdminError} naming the field.
 */
export function parseCreateNewSite(
  params: ReadonlyMap<string, string>,
  profile: ServerProfile,
): CreateSiteInput {
  const { username, password } = credentials(params);
  return profile.product.dialect === "classic"
    ? { username, password, ...parseClassic(params, profile) }
    : { username, password, ...parseCarbon(params, profile) };
}

/**
 * ArcGIS Server's createNewSite (docs; Chef arcgis-enterprise, Ansible create_site.py):
 * `configStoreConnection` `{type, connectionString[, connectionSecret]}`, `directories`
 * `{"directories":[{name, physicalPath, directoryType, cleanupMode, maxFileAge, description}]}`,
 * `settings` (the docs' sample request says `logsSettings`: both are accepted), `runAsync`.
 */
function parseClassic(
  params: ReadonlyMap<string, string>,
  { product, version }: ServerProfile,
): Omit<CreateSiteInput, "username" | "password"> {
  refuseParam(params, "async", "runAsync", product, CARBON_PRODUCTS);
  const storeText = present(params, "configStoreConnection");
  let configStore = defaultConfigStore(product);
  if (storeText !== undefined) {
    const raw = jsonObject("configStoreConnection", storeText);
    if ("configPersistenceType" in raw || "className" in raw) {
      throw new AdminError(400, [
        `Invalid value for 'configStoreConnection': ${product.name} takes {"type", "connectionString"} (plus "connectionSecret" for cloud stores); "configPersistenceType" and "className" are the form of ${CARBON_PRODUCTS}.`,
      ]);
    }
    const store = validated(ClassicConfigStoreParam, "configStoreConnection", raw);
    configStore = {
      type: store.type,
      connectionString: store.connectionString,
      localRepositoryPath: store.localRepositoryPath ?? null,
      className: null,
      username: null,
    };
  }
  const dirsText = present(params, "directories");
  let directories = defaultDirectories({ product, version });
  if (dirsText !== undefined) {
    const raw = jsonObject(
      "directories",
      dirsText,
      ` ${product.name} takes {"directories": [...]}; a bare array is the form of ${CARBON_PRODUCTS}.`,
    );
    directories = validated(
      classicDirectoriesParam(product.directoryTypes(version)),
      "directories",
      raw,
    ).directories;
  }
  return {
    configStore,
    directories,
    logSettings: classicLogSettings(params, product),
    runAsync: booleanParam(params, "runAsync"),
  };
}

/**
 * ArcGIS Server's log settings of createNewSite, from `settings` or `logsSettings` (the docs'
 * parameter list and sample disagree; both are accepted). Both with different values is an
 * error.
 */
function classicLogSettings(params: ReadonlyMap<string, string>, product: Product): LogSettings {
  const candidates = (["settings", "logsSettings"] as const).flatMap((name) => {
    const text = present(params, name);
    return text === undefined
      ? []
      : [{ name, value: validated(LogSettingsParam, name, jsonObject(name, text)) }];
  });
  const [first, second] = candidates;
  if (
    first !== undefined &&
    second !== undefined &&
    !isDeepStrictEqual(first.value, second.value)
  ) {
    throw new AdminError(400, [
      "The parameters 'settings' and 'logsSettings' were both sent, with different values. Send the log settings once, as 'settings'.",
    ]);
  }
  return withoutUndefined(defaultLogSettings(product), first?.value ?? {});
}

/**
 * createNewSite of Mission, Notebook and Video Server (Chef `create_site` of arcgis-mission,
 * arcgis-notebooks, arcgis-video; DSC `Invoke-CreateSite`): `configStoreConnection`
 * `{configPersistenceType, connectionString, className[, username, password]}`, `directories`
 * as a bare array of `{name, path, type}` (Chef adds an `id`), `logsSettings` (DSC adds
 * `usageMeteringEnabled`), `async` (DSC sends "false"; Chef sends none). Mission Server's own
 * createNewSite page lists `settings` and `runAsync` too (the spec's parameter table; the ArcGIS
 * API for Python's `Server._create` sends them): each is taken as the other name of
 * `logsSettings` and `async`; both names with different values is code 400.
 */
function parseCarbon(
  params: ReadonlyMap<string, string>,
  { product, version }: ServerProfile,
): Omit<CreateSiteInput, "username" | "password"> {
  const storeText = present(params, "configStoreConnection");
  let configStore = defaultConfigStore(product);
  if (storeText !== undefined) {
    const raw = jsonObject("configStoreConnection", storeText);
    if (!("configPersistenceType" in raw) && ("type" in raw || "connectionSecret" in raw)) {
      throw new AdminError(400, [
        `Invalid value for 'configStoreConnection': ${product.name} takes {"configPersistenceType", "connectionString", "className"} (plus "username" and "password" for cloud stores); "type" and "connectionSecret" are the form of ArcGIS Server.`,
      ]);
    }
    const store = validated(CarbonConfigStoreParam, "configStoreConnection", raw);
    configStore = {
      type: store.configPersistenceType,
      connectionString: store.connectionString,
      localRepositoryPath: null,
      className: store.className,
      username: store.username ?? null,
    };
  }
  const dirsText = present(params, "directories");
  let directories = defaultDirectories({ product, version });
  if (dirsText !== undefined) {
    const raw = jsonParam("directories", dirsText);
    if (!Array.isArray(raw)) {
      throw new AdminError(400, [
        `Invalid value for 'directories': ${product.name} takes a JSON array [{"name", "path", "type"}, ...]; {"directories": [...]} is the form of ArcGIS Server.`,
      ]);
    }
    const where = `${product.name} ${version.full}`;
    directories = validated(
      carbonDirectoriesParam(product.directoryTypes(version), where),
      "directories",
      raw,
    ).map((dir) => ({
      name: dir.name,
      physicalPath: dir.path,
      directoryType: dir.type as DirectoryRecord["directoryType"],
      cleanupMode: "NONE" as const,
      maxFileAge: 0,
      description: "",
    }));
  }
  const logs = oneOf(params, "logsSettings", "settings", (name, text) =>
    validated(CarbonLogSettingsParam, name, jsonObject(name, text)),
  );
  const logSettings =
    logs === undefined
      ? defaultLogSettings(product)
      : withoutUndefined(defaultLogSettings(product), logs);
  const runAsync =
    oneOf(params, "async", "runAsync", (name) => booleanParam(params, name)) ?? false;
  return { configStore, directories, logSettings, runAsync };
}

/**
 * A parameter the product takes under two names: the value under either, parsed; both with
 * different values is code 400.
 */
function oneOf<T>(
  params: ReadonlyMap<string, string>,
  name: string,
  other: string,
  parse: (name: string, text: string) => T,
): T | undefined {
  const values = [name, other].flatMap((n) => {
    const text = present(params, n);
    return text === undefined ? [] : [parse(n, text)];
  });
  const [first, second] = values;
  if (first !== undefined && second !== undefined && !isDeepStrictEqual(first, second)) {
    throw new AdminError(400, [
      `The parameters '${name}' and '${other}' were both sent, with different values. Send it once, as '${name}'.`,
    ]);
  }
  return first;
}

/**
 * Reads logs/settings/edit: each log setting as its own form field (DSC Update-LogSettings),
 * unspecified ones unchanged; `usageMeteringEnabled` on Mission, Notebook and Video Server.
 */
export function parseLogSettingsEdit(
  params: ReadonlyMap<string, string>,
  current: LogSettings,
  product: Product,
): LogSettings {
  const raw: Record<string, unknown> = {};
  for (const name of ["logLevel", "logDir"] as const) {
    const value = present(params, name);
    if (value !== undefined) raw[name] = value;
  }
  for (const name of ["maxErrorReportsCount", "maxLogFileAge"] as const) {
    const value = present(params, name);
    if (value !== undefined) raw[name] = /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  }
  if (product.dialect === "carbon" && present(params, "usageMeteringEnabled") !== undefined) {
    raw.usageMeteringEnabled = booleanParam(params, "usageMeteringEnabled");
  }
  return withoutUndefined(current, validated(CarbonLogSettingsParam, "settings", raw));
}

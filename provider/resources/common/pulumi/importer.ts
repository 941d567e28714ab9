/**
 * What a resource needs to be brought under a stack by `pulumi import` (through the provider
 * plugin): the import id's format and how it is read, the inputs a program declares for what the
 * id names, and the read of that object, recorded as adopted. The plugin (provider/plugin/import.ts)
 * runs these steps in order with the provider configuration's connection defaults.
 *
 * @internal
 */

/** Plain values of inputs or outputs. */
export type Values = Record<string, unknown>;

/**
 * An import id as given: its first part (a URL or the resource's id), then options
 * `,key=value` for what neither the id nor the server tells.
 *
 * @internal
 */
export interface ImportId {
  /** The id as the user gave it, for messages. */
  text: string;
  main: string;
  options: Record<string, string>;
}

/**
 * How one resource is imported.
 *
 * @internal
 */
export interface Importer {
  /** The id's format as the docs and messages show it, e.g. `<adminUrl>[,serverType=<type>]`. */
  idFormat: string;
  /** The options an id may carry after its first part; never a secret. */
  options: readonly string[];
  /** The inputs the id itself gives (throws, naming the field, when it is not usable). */
  fromId(id: ImportId): Values;
  /**
   * The inputs a program declares for the object, read from the server where the id does not
   * give them; `connection` is {@link fromId}'s with the connection defaults, present and usable.
   * Without it, the inputs are {@link fromId}'s.
   */
  declared?(id: ImportId, connection: Values): Promise<Values>;
  /**
   * Reads the object from valid inputs (the declared ones with every default): its id and its
   * outputs, recorded as adopted so that destroy leaves it as it was found unless an input says
   * otherwise. Throws, naming what is wrong, when the object is not there.
   */
  adopt(id: ImportId, inputs: Values): Promise<{ id: string; outs: Values }>;
}

/** Option names that hold a secret: never accepted in an id (ids are printed and stored plain). */
const SECRET_OPTION = /password|token|secret/i;

/**
 * Reads an import id `<main>[,key=value]...`, accepting only the resource's options. Errors name
 * the option and never repeat a value.
 *
 * @internal
 */
export function parseImportId(
  type: string,
  text: string,
  allowed: readonly string[],
  idFormat: string,
): ImportId {
  const [main = "", ...rest] = text.split(",");
  const problem = (what: string) =>
    new Error(
      `Cannot import the ${type} "${redacted(text)}": ${what}. The id's format is ${idFormat}.`,
    );
  if (main.trim() === "") throw problem("its first part is empty");
  const options: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf("=");
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (SECRET_OPTION.test(key)) {
      throw new Error(
        `Cannot import the ${type}: ${key} is a secret and never part of an import id (the id ` +
          "is printed and stored in plain text). Set it in the stack's config instead (see " +
          "docs/import.md), then run the import again.",
      );
    }
    if (eq < 0 || part.slice(eq + 1).trim() === "") {
      throw problem(`the option "${key}" has no value (write ${key}=<value>)`);
    }
    if (!allowed.includes(key)) {
      throw problem(
        allowed.length === 0
          ? `it takes no option, and "${key}" was given`
          : `"${key}" is not one of its options (${allowed.join(", ")})`,
      );
    }
    options[key] = part.slice(eq + 1).trim();
  }
  return { text, main: main.trim(), options };
}

/** The id for messages: an option whose name looks secret keeps its name, never its value. */
function redacted(text: string): string {
  return text
    .split(",")
    .map((part, i) => {
      const eq = part.indexOf("=");
      return i > 0 && eq >= 0 && SECRET_OPTION.test(part.slice(0, eq))
        ? `${part.slice(0, eq)}=…`
        : part;
    })
    .join(",");
}

/**
 * A URL of an import id, checked as a URL so that a typo is named rather than sent.
 *
 * @internal
 */
export function urlOfId(type: string, field: string, value: string, example: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "https:" || url.protocol === "http:") return value;
  } catch {
    // named below
  }
  throw new Error(
    `Cannot import the ${type}: ${field} "${value}" (from the import id) is not an http(s) URL, ` +
      `e.g. ${example}.`,
  );
}

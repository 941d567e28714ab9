/**
 * The value types SiteUpgrade's generated types name. A leaf module (it imports nothing), so that
 * the generated types, the class and the inputs share them without an import circle.
 */

/** What a SiteUpgrade's last create or update found and did. */
export type SiteUpgradeOutcome = "upgraded" | "awaited" | "not-required";

/** The REST client layer: undici-based calls to the ArcGIS admin and sharing APIs. */
export const CLIENT_LAYER = "arcgis-rest";

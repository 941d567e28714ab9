"""Shared by the scripts the python-api suites run: read the emulator's addresses from the
environment, run named steps, and print one JSON line with each step's result or error."""
import json
import os
import sys
import traceback

PORTAL_URL = os.environ["EMU_PORTAL_URL"]  # https://127.0.0.1:PORT/portal
ADMIN_URL = os.environ["EMU_ADMIN_URL"]  # https://127.0.0.1:PORT/arcgis/admin
SITE_URL = ADMIN_URL.rsplit("/admin", 1)[0]  # https://127.0.0.1:PORT/arcgis
PORTAL_USER = os.environ["EMU_PORTAL_USER"]
PORTAL_PASSWORD = os.environ["EMU_PORTAL_PASSWORD"]
SITE_USER = os.environ.get("EMU_SITE_USER", "")
SITE_PASSWORD = os.environ.get("EMU_SITE_PASSWORD", "")

results = {}


def step(name, fn):
    """Runs one step; records its JSON-able result, or the error's type and text."""
    try:
        value = fn()
        results[name] = {"ok": _plain(value)}
        return value
    except Exception as error:  # the suites assert on the text
        results[name] = {"error": f"{type(error).__name__}: {error}"}
        sys.stderr.write(traceback.format_exc())
        return None


def _plain(value):
    try:
        json.dumps(value)
        return value
    except TypeError:
        if isinstance(value, dict):
            return {k: _plain(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [_plain(v) for v in value]
        return repr(value)


def done():
    print("RESULT " + json.dumps(results))


def gis(**kwargs):
    from arcgis.gis import GIS

    return GIS(PORTAL_URL, PORTAL_USER, PORTAL_PASSWORD, verify_cert=False, **kwargs)


def create_site():
    """createNewSite through arcgis.gis.server.Server._create, synchronously."""
    from arcgis.gis.server import Server

    # SiteManager.create drops its url (arcgis 2.4.4 calls Server._create without it), so the
    # static method it wraps is called directly, as SiteManager.create means to.
    return Server._create(
        url=ADMIN_URL,
        username=SITE_USER,
        password=SITE_PASSWORD,
        config_store_connection=json.dumps(
            {
                "configPersistenceType": "FILESYSTEM",
                "connectionString": "/arcgis/config-store",
                "className": "com.esri.arcgis.carbon.persistence.impl.filesystem.FSConfigPersistence",
            }
        ),
        directories=json.dumps([{"name": "arcgisoutput", "path": "/arcgis/output", "type": "OUTPUT"}]),
        run_async=False,
        baseurl=ADMIN_URL,
        verify_cert=False,
    )

"""Figure 7's Esri side as a user's process pays it: one fresh Python process that imports Esri's
ArcGIS API for Python (`arcgis` from PyPI, unmodified; toolchain/python-api.cjs) and creates one
ArcGIS Server site with its createNewSite call, arcgis.gis.server.Server._create (the static
method SiteManager.create wraps). Reads the site from BENCH_SITE (JSON: adminUrl, caFile,
username, password, configStoreConnection, directories, logSettings) and prints one line
`RESULT {...}`: the import's duration, the call's start and return as epoch ms, and the answer.
"""
import json
import os
import time

site = json.loads(os.environ["BENCH_SITE"])
import_started = time.perf_counter()
from arcgis.gis.server import Server  # noqa: E402

import_ms = (time.perf_counter() - import_started) * 1000

called_epoch_ms = time.time() * 1000
answer = Server._create(
    url=site["adminUrl"],
    username=site["username"],
    password=site["password"],
    config_store_connection=json.dumps(site["configStoreConnection"]),
    directories=json.dumps({"directories": site["directories"]}),
    logs_settings=json.dumps(site["logSettings"]),
    run_async=False,
    baseurl=site["adminUrl"],
    # Verified against the emulator's CA, as ours verifies it.
    verify_cert=True,
    ca_bundles=site["caFile"],
)
returned_epoch_ms = time.time() * 1000
print(
    "RESULT "
    + json.dumps(
        {
            "importMs": import_ms,
            "calledEpochMs": called_epoch_ms,
            "returnedEpochMs": returned_epoch_ms,
            "answer": answer,
        }
    ),
    flush=True,
)

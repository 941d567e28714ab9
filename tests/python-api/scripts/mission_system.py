"""Create a Mission Server site, federate it with the portal, then read and change its system
resources through arcgis.gis.mission.MissionServer(url, gis): system.properties (read, update),
system.config_store, system.licenses, system.web_adaptors, machine.list(), logs.settings and
security.configuration (read, update). Every request carries the portal's token."""
from common import SITE_URL, SITE_USER, SITE_PASSWORD, create_site, gis, step, done

WEB_ADAPTOR_URL = "https://webadaptor.example.com/mission"


def mission_server(g):
    from arcgis.gis.mission import MissionServer

    return MissionServer(SITE_URL, g)


def seed_properties(g):
    # The setter only posts keys the site already has (arcgis 2.4.4 `SystemManager.properties`),
    # and a new site has none: the first properties go in with the same request Chef sends.
    return g._con.post(
        SITE_URL + "/admin/system/properties/update",
        {"f": "json", "properties": {"WebContextURL": "https://first.example.com/mission"}},
    )


def update_properties(ms):
    ms.system.properties = {"WebContextURL": "https://second.example.com/mission"}
    return True


def web_adaptors(ms):
    manager = ms.system.web_adaptors
    registered = manager.register(
        name="wa-machine",
        ip="10.0.0.8",
        webadapter_url=WEB_ADAPTOR_URL,
        http_port=80,
        https_port=443,
        description="python-api test",
    )
    listed = manager.list()
    if not isinstance(listed, list):
        raise RuntimeError(f"no web adaptor list: {listed!r}")
    urls = []
    for wa in listed:
        # WebAdaptor has no public reader in arcgis 2.4.4: _init GETs its resource.
        wa._init()
        urls.append(wa._properties.get("webAdaptorURL"))
    return {"registered": registered, "urls": urls}


def machines(ms):
    names = []
    for machine in ms.machine.list():
        name = machine.properties.get("machineName")
        if name is None:
            raise RuntimeError(f"machine {machine} could not be read")
        names.append(name)
    return names


def log_settings(ms):
    settings = ms.logs.settings
    if not hasattr(settings, "items"):
        raise RuntimeError(f"no log settings: {settings!r}")
    return dict(settings)


def update_security(ms):
    ms.security.configuration = {"allowedAdminAccessIPs": "10.0.0.1"}
    return True


step("createSite", create_site)
g = gis()
fed = g.admin.federation
step("federate", lambda: fed.federate(SITE_URL, SITE_URL, SITE_USER, SITE_PASSWORD))
servers = step("servers", lambda: fed.servers)
sid = servers["servers"][0]["id"] if servers and servers.get("servers") else "missing"
step("update", lambda: fed.update(sid, "FEDERATED_SERVER", "MissionServer"))

ms = step("missionServer", lambda: mission_server(g))
step("propertiesNew", lambda: dict(ms.system.properties))
step("seedProperties", lambda: seed_properties(g))
# SystemManager keeps what it read: a new MissionServer reads the properties again.
ms = mission_server(g)
step("propertiesSeeded", lambda: dict(ms.system.properties))
step("updateProperties", lambda: update_properties(ms))
step("propertiesUpdated", lambda: dict(mission_server(g).system.properties))
step("configStore", lambda: dict(ms.system.config_store))
step("licenses", lambda: dict(ms.system.licenses))
step("webAdaptors", lambda: web_adaptors(ms))
step("machines", lambda: machines(ms))
step("logSettings", lambda: log_settings(ms))
step("securityConfig", lambda: dict(ms.security.configuration))
step("updateSecurity", lambda: update_security(ms))
step("securityConfigUpdated", lambda: dict(ms.security.configuration))
done()

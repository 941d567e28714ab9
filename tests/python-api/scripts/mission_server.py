"""Create a Mission Server site, federate it with the portal, then administer it through
arcgis.gis.mission.MissionServer(url, gis), signed in to the portal both ways (the default login
and use_gen_token=True): log settings, machines, security configuration. Each request to the server
carries the portal's token (X-Esri-Authorization), which only a federated server accepts."""
from common import SITE_URL, SITE_USER, SITE_PASSWORD, create_site, gis, step, done


def log_settings(ms):
    # LogManager.settings answers "" when the request fails (arcgis 2.4.4 swallows the error).
    settings = ms.logs.settings
    if not hasattr(settings, "items"):
        raise RuntimeError(f"no log settings: {settings!r}")
    return dict(settings)


def machines(ms):
    names = []
    for machine in ms.machine.list():
        # Machine.properties answers an empty map when the request fails.
        name = machine.properties.get("machineName")
        if name is None:
            raise RuntimeError(f"machine {machine} could not be read")
        names.append(name)
    return names


def mission_server(g):
    from arcgis.gis.mission import MissionServer

    return MissionServer(SITE_URL, g)


step("createSite", create_site)
g = gis()
fed = g.admin.federation
step("federate", lambda: fed.federate(SITE_URL, SITE_URL, SITE_USER, SITE_PASSWORD))
servers = step("servers", lambda: fed.servers)
sid = servers["servers"][0]["id"] if servers and servers.get("servers") else "missing"
step("update", lambda: fed.update(sid, "FEDERATED_SERVER", "MissionServer"))

ms = step("missionServer", lambda: mission_server(g))
step("logSettings", lambda: log_settings(ms))
step("machines", lambda: machines(ms))
step("securityConfig", lambda: dict(ms.security.configuration))

g2 = gis(use_gen_token=True)
ms2 = step("missionServerGenToken", lambda: mission_server(g2))
step("logSettingsGenToken", lambda: log_settings(ms2))
step("machinesGenToken", lambda: machines(ms2))

step("unfederate", lambda: fed.unfederate(sid))
step("logSettingsAfterUnfederate", lambda: log_settings(ms))
done()

"""A federated Mission Server through Esri's own class for it, arcgis.gis.mission.MissionServer,
given the portal's GIS: its requests to the server carry the portal's token. Creates the site,
federates it, reads log settings, machines and the security configuration, then unfederates and
reads the security configuration again (the portal's token no longer works there)."""
from common import SITE_URL, SITE_USER, SITE_PASSWORD, create_site, gis, step, done

step("createSite", create_site)
g = gis()
fed = g.admin.federation
step("federate", lambda: fed.federate(SITE_URL, SITE_URL, SITE_USER, SITE_PASSWORD))


def mission_server():
    from arcgis.gis.mission import MissionServer

    return MissionServer(SITE_URL, g)


ms = mission_server()
# LogManager.settings answers "" on any error (arcgis 2.4.4), so the suite asserts on its fields.
step("logSettings", lambda: dict(ms.logs.settings))
step("machines", lambda: [dict(m.properties) for m in ms.machine.list()])
step("securityConfig", lambda: ms.security.configuration)
servers = fed.servers
sid = servers["servers"][0]["id"] if servers and servers.get("servers") else "missing"
step("unfederate", lambda: fed.unfederate(sid))
# A new MissionServer is refused by the library itself now (no mission server in the portal's
# list); the one made before asks the server, which no longer takes the portal's token.
step("newMissionServerAfter", mission_server)
step("securityConfigAfter", lambda: ms.security.configuration)
done()

"""The portal's Web Adaptors through gis.admin.system.web_adaptors (arcgis/gis/admin/_system.py):
list() reads portaladmin/system/webadaptors, WebAdaptor.unregister() posts <id>/unregister; the
list is then empty."""
from common import gis, step, done


def adaptors():
    return gis(use_gen_token=True).admin.system.web_adaptors


def listed():
    return [dict(wa.properties)["webAdaptorURL"] for wa in adaptors().list()]


def unregister():
    return [wa.unregister() for wa in adaptors().list()]


step("list", listed)
step("unregister", unregister)
step("listAfter", listed)
done()

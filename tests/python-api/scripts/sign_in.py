"""GIS(url, user, password): the default OAuth2 sign-in, generateToken, and a wrong password."""
import sys
from common import PORTAL_URL, PORTAL_USER, PORTAL_PASSWORD, gis, step, done

use_gen_token = "--gen-token" in sys.argv


def signed_in():
    g = gis(use_gen_token=use_gen_token)
    me = g.users.me
    return {
        "username": me.username,
        "role": me.role,
        "portalName": g.properties["portalName"],
        "portalId": g.properties["id"],
        "isAdmin": g.admin is not None,
        "auth": type(g._con._session.auth).__name__,
    }


step("signIn", signed_in)


def wrong_password():
    from arcgis.gis import GIS

    GIS(PORTAL_URL, PORTAL_USER, "not-the-password", verify_cert=False, use_gen_token=use_gen_token)
    return "signed in"


step("wrongPassword", wrong_password)


def code_grant():
    """The library's other built-in sign-in (its fallback when the implicit grant fails): the
    authorization code shown on the out-of-band page, exchanged at oauth2/token, then refreshed."""
    from arcgis.auth import EsriBuiltInAuth

    # The session of a signed-in GIS: its TLS settings (verify_cert=False); the sign-in's own
    # requests drop its authentication.
    session = gis(use_gen_token=True)._con._session
    auth = EsriBuiltInAuth(
        url=PORTAL_URL,
        username=PORTAL_USER,
        password=PORTAL_PASSWORD,
        response_type="code",
        verify_cert=False,
        session=session,
    )
    first = auth.token
    auth._refresh()
    second = auth._auth_token["access_token"]
    return {
        "tokenIssued": isinstance(first, str) and len(first) > 20,
        "refreshed": isinstance(second, str) and second != first,
        "hasRefreshToken": "refresh_token" in auth._auth_token,
    }


if not use_gen_token:
    step("codeGrant", code_grant)
done()

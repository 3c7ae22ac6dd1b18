"""Pre-seeds a Home Assistant 2024.3 configuration directory for a test, and prints a token.

    python ha-seed.py CONFDIR [--mqtt-port PORT]

Writes CONFDIR/.storage/auth (an owner and a long-lived access token: a refresh token of type
long_lived_access_token and a JWT signed with its key) and, with --mqtt-port, CONFDIR/.storage/
core.config_entries with the MQTT config entry for a broker on 127.0.0.1 at PORT, as the UI's "Add
integration" would store it. Prints the token for the REST and WebSocket APIs. Run it with the
virtualenv's Python (it needs PyJWT, which Home Assistant brings).
"""

import argparse
import datetime
import json
import secrets
import time
import uuid

import jwt

parser = argparse.ArgumentParser()
parser.add_argument("confdir")
parser.add_argument("--mqtt-port", type=int)
args = parser.parse_args()
now = datetime.datetime.now(datetime.timezone.utc).isoformat()
user_id, token_id, jwt_key = uuid.uuid4().hex, uuid.uuid4().hex, secrets.token_hex(64)
auth = {"users": [{"id": user_id, "group_ids": ["system-admin"], "is_owner": True, "is_active": True, "name": "test",
                   "system_generated": False, "local_only": False}],
        "groups": [{"id": "system-admin", "name": "Administrators"}, {"id": "system-users", "name": "Users"},
                   {"id": "system-read-only", "name": "Read Only"}],
        "credentials": [],
        "refresh_tokens": [{"id": token_id, "user_id": user_id, "client_id": None, "client_name": "gpio-debounce tests",
                            "client_icon": None, "token_type": "long_lived_access_token", "created_at": now,
                            "access_token_expiration": 86400.0, "token": secrets.token_hex(64), "jwt_key": jwt_key,
                            "last_used_at": None, "last_used_ip": None, "expire_at": None, "credential_id": None,
                            "version": "2024.3.3"}]}
stores = [("auth", auth)]
if args.mqtt_port is not None:
    stores.append(("core.config_entries", {"entries": [{
        "entry_id": uuid.uuid4().hex, "version": 1, "minor_version": 1, "domain": "mqtt", "title": "127.0.0.1",
        "data": {"broker": "127.0.0.1", "port": args.mqtt_port, "discovery": True}, "options": {},
        "pref_disable_new_entities": False, "pref_disable_polling": False, "source": "user",
        "unique_id": None, "disabled_by": None}]}))
for key, data in stores:
    with open(f"{args.confdir}/.storage/{key}", "w") as f:
        json.dump({"version": 1, "minor_version": 1, "key": key, "data": data}, f)
t = int(time.time())
print(jwt.encode({"iss": token_id, "iat": t, "exp": t + 86400}, jwt_key, algorithm="HS256"))

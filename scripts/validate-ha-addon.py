#!/usr/bin/env python3
"""Checks the add-on repository in ha-addon/ (or the folder given) against the rules of Home Assistant's
Supervisor, as its source states them (home-assistant/supervisor, supervisor/apps/validate.py,
supervisor/apps/options.py, supervisor/store/validate.py and supervisor/const.py, read at commit
090ef31 of 2026-08-21), and against this add-on's own promises:

- repository.yaml: `name` required, `url` and `maintainer` optional;
- config.yaml: the required keys (`name`, `version`, `slug` of [-_.A-Za-z0-9]+, `description`, `arch`
  from aarch64, amd64 and the deprecated armhf, armv7, i386); `startup`, `boot`, `timeout` (10 to
  300 s) and `map` (RE_VOLUME) in their forms; `devices` a list of paths; `services` as
  `mqtt|mysql:provide|want|need`; every `schema` element one of the Supervisor's types and every
  option in the schema; no key the Supervisor does not know (it drops them silently), no deprecated
  arch;
- least privilege: `gpio: true`, no `full_access`, `privileged`, `host_network` or `hassio_api`;
  the broker through `services: mqtt:want` (a configuration with the ESPHome API needs none); `ports`
  as the Supervisor's `<port>/tcp|udp: <host port or null>`, each with a `ports_description`, and the
  ESPHome API's 6053/tcp among them;
- the version is the Debian package's (debian/changelog), and a Dockerfile.<arch> exists for each
  arch, naming its base in an ARG with a default of its own (not BUILD_FROM, which older Supervisors
  set to an Alpine base);
- translations/en.yaml names every option (`configuration: {key: {name, description}}`);
- no other file of the project is named repository.* or config.{yaml,yml,json} (the store reads them
  all).

Usage: scripts/validate-ha-addon.py [ADDON_REPOSITORY]   Prints each problem; exits 1 if any.
"""
import pathlib
import re
import subprocess
import sys

import yaml

RE_SLUG = re.compile(r"^[-_.A-Za-z0-9]+$")
ARCHES = {"aarch64", "amd64"}
ARCHES_DEPRECATED = {"armhf", "armv7", "i386"}
STARTUP = {"initialize", "system", "services", "application", "once"}
BOOT = {"auto", "manual", "manual_only"}
RE_VOLUME = re.compile(
    r"^(data|config|ssl|local_apps|addons|backup|share|media|homeassistant_config|all_app_configs|all_addon_configs|app_config|addon_config)(?::(rw|ro))?$"
)
RE_SERVICE = re.compile(r"^(mqtt|mysql):(provide|want|need)$")
RE_SCHEMA_ELEMENT = re.compile(
    r"^(?:|bool|email|url|port|device(?:\(subsystem=[a-z]+\))?|str(?:\(\d*,\d*\))?|password(?:\(\d*,\d*\))?"
    r"|int(?:\(-?\d*,-?\d*\))?|float(?:\(-?\d*\.?\d*,-?\d*\.?\d*\))?|match\(.*\)|list\(.+\))\??$"
)
# Every key of the Supervisor's SCHEMA_APP_CONFIG (apps/validate.py), plus the deprecated ones its
# migration still reads.
KNOWN = set(
    """name version slug description arch machine url startup boot init advanced stage ports ports_description
    watchdog webui ingress ingress_port ingress_entry ingress_stream panel_icon panel_title panel_admin homeassistant
    host_network host_pid host_ipc host_uts host_dbus devices udev tmpfs map environment privileged apparmor
    full_access audio video gpio usb uart devicetree kernel_modules realtime hassio_api hassio_role homeassistant_api
    stdin legacy docker_api auth_api services discovery backup_exclude backup_pre backup_post backup options schema
    image ulimits timeout journald breaking_versions""".split()
)


def check_config(folder: pathlib.Path, version: str) -> list[str]:
    problems = []
    config = yaml.safe_load((folder / "config.yaml").read_text())
    if not isinstance(config, dict):
        return ["config.yaml is not a mapping"]
    for key in ("name", "version", "slug", "description", "arch"):
        if key not in config:
            problems.append(f"config.yaml lacks the required `{key}`")
    for key in ("name", "description"):
        if key in config and not isinstance(config[key], str):
            problems.append(f"`{key}` must be a string")
    if not isinstance(config.get("version"), str):
        problems.append("`version` must be a string (quote it)")
    elif config["version"] != version:
        problems.append(f"`version` {config['version']!r} is not the package's {version!r} (debian/changelog)")
    if not RE_SLUG.match(str(config.get("slug", ""))):
        problems.append(f"`slug` {config.get('slug')!r} is not [-_.A-Za-z0-9]+")
    arch = config.get("arch", [])
    if not isinstance(arch, list) or not arch:
        problems.append("`arch` must be a list")
        arch = []
    for value in arch:
        if value in ARCHES_DEPRECATED:
            problems.append(f"`arch` {value} is deprecated by the Supervisor")
        elif value not in ARCHES:
            problems.append(f"`arch` {value!r} is not one of {sorted(ARCHES)}")
        elif not (folder / f"Dockerfile.{value}").is_file():
            problems.append(f"no Dockerfile.{value} for arch {value}")
        else:
            dockerfile = (folder / f"Dockerfile.{value}").read_text()
            base = re.search(r"^ARG (\w+)=\S+\nFROM \$\{(\w+)\}", dockerfile, re.M)
            if not base or base.group(1) != base.group(2) or base.group(1) == "BUILD_FROM":
                problems.append(f"Dockerfile.{value} must name its base in an `ARG <NAME>=<default>` of its own, then `FROM ${{NAME}}`"
                                " (build.yaml is deprecated, and older Supervisors pass BUILD_FROM with an Alpine base)")
    for key in sorted(set(config) - KNOWN):
        problems.append(f"`{key}` is not a key the Supervisor knows: it would be dropped silently")
    if config.get("startup", "application") not in STARTUP:
        problems.append(f"`startup` {config.get('startup')!r} is not one of {sorted(STARTUP)}")
    if config.get("boot", "auto") not in BOOT:
        problems.append(f"`boot` {config.get('boot')!r} is not one of {sorted(BOOT)}")
    timeout = config.get("timeout", 10)
    if not isinstance(timeout, int) or not 10 <= timeout <= 300:
        problems.append(f"`timeout` {timeout!r} is not 10 to 300 seconds")
    for device in config.get("devices", []):
        if not isinstance(device, str) or not device.startswith("/dev/") or ":" in device:
            problems.append(f"`devices` entry {device!r} is not a device path (the `path:path:rwm` form is deprecated)")
    for entry in config.get("map", []):
        if isinstance(entry, str) and not RE_VOLUME.match(entry):
            problems.append(f"`map` entry {entry!r} is not a mapping type[:rw|:ro] the Supervisor knows")
        elif isinstance(entry, dict) and "type" not in entry:
            problems.append(f"`map` entry {entry!r} has no `type`")
    for service in config.get("services", []):
        if not RE_SERVICE.match(str(service)):
            problems.append(f"`services` entry {service!r} is not mqtt|mysql:provide|want|need")
    schema = config.get("schema", {})
    options = config.get("options", {})
    for key, element in schema.items():
        if not isinstance(element, str) or not RE_SCHEMA_ELEMENT.match(element):
            problems.append(f"`schema` {key}: {element!r} is not a type the Supervisor knows")
    for key in options:
        if key not in schema:
            problems.append(f"option `{key}` has no `schema` entry")
    # This add-on's promises.
    if config.get("gpio") is not True:
        problems.append("the add-on must ask for `gpio: true` (the GPIO character devices)")
    for key in ("full_access", "host_network", "hassio_api", "host_pid", "docker_api"):
        if config.get(key):
            problems.append(f"`{key}` is more than the add-on needs")
    if config.get("privileged"):
        problems.append(f"`privileged` {config['privileged']} is more than the add-on needs")
    if "mqtt:want" not in config.get("services", []):
        problems.append("the broker comes from `services: [mqtt:want]`")
    ports = config.get("ports") or {}
    for port, host in ports.items():
        if not re.fullmatch(r"\d{1,5}/(tcp|udp)", str(port)) or not (host is None or (isinstance(host, int) and 0 < host < 65536)):
            problems.append(f"`ports` {port}: {host!r} is not <port>/tcp|udp: <host port or null>")
        if port not in (config.get("ports_description") or {}):
            problems.append(f"`ports` {port} has no `ports_description`")
    if "6053/tcp" not in ports:
        problems.append("`ports` publishes no 6053/tcp: Home Assistant cannot reach the ESPHome API")
    translations = yaml.safe_load((folder / "translations" / "en.yaml").read_text()) or {}
    for key in options:
        entry = translations.get("configuration", {}).get(key)
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            problems.append(f"translations/en.yaml names no option `{key}`")
    return problems


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    repository = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root / "ha-addon"
    version = subprocess.run(["dpkg-parsechangelog", "-SVersion"], cwd=root, capture_output=True, text=True, check=True).stdout.strip()
    problems = []
    info = yaml.safe_load((repository / "repository.yaml").read_text())
    if not isinstance(info, dict) or not isinstance(info.get("name"), str):
        problems.append("repository.yaml needs a `name`")
    addons = sorted(p.parent for p in repository.glob("*/config.yaml"))
    if not addons:
        problems.append(f"no add-on (*/config.yaml) in {repository}")
    for folder in addons:
        for file in ("Dockerfile.aarch64", "start.sh", "DOCS.md", "CHANGELOG.md", "translations/en.yaml", "icon.png", "logo.png"):
            if not (folder / file).is_file():
                problems.append(f"{folder.name}/{file} is missing")
        if not problems:
            problems += [f"{folder.name}/config.yaml: {p}" for p in check_config(folder, version)]
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True).stdout.split()
    for path in tracked:
        name = pathlib.PurePosixPath(path).name
        if (re.match(r"^repository\.[a-z]+$", name) or re.match(r"^config\.(yaml|yml|json)$", name)) and not path.startswith("ha-addon/"):
            problems.append(f"{path}: the add-on store reads every file of this name in the repository")
    for problem in problems:
        print(problem)
    print(f"{len(addons)} add-on(s) checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

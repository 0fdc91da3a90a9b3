#!/usr/bin/env python3
"""Checks every file under deploy/ through real tools; run by scripts/check-deploy.sh (and so by `make test`).

- deploy/systemd/partgate.service: `systemd-analyze verify` (against a scratch root holding the unit, the
  system's units and the partgate binary at the unit's path) must pass without a word; the hardening the unit
  promises is present; `systemd-analyze security --offline` rates its exposure.
- deploy/container/Dockerfile: parsed with dockerfile-parse; multi-stage, pinned base images, the Makefile's
  release flags, a non-root USER, EXPOSE and HEALTHCHECK matching the default configuration's ports, no ADD,
  the documented ENTRYPOINT; the default configuration passes the real binary's `partgate check`, and the
  HEALTHCHECK command passes against `partgate serve` running it (addresses moved to 127.0.0.1:0).
- deploy/kubernetes/*.yaml: every document validated (strict) against the Kubernetes JSON schemas that
  kubernetes-validate bundles (offline); the Deployment's probes, drain timing, resources and security
  context; the ConfigMap's partgate.yaml, projected as the Deployment projects it (with a certificate and key
  made for the check where the Secret goes), passes `partgate check`; served, it answers the liveness probe
  200 and the readiness probe 200 or 503, and exits 0 on SIGTERM.

Usage: check_deploy.py PARTGATE_BINARY. Prints `ok NAME` or `FAIL NAME: REASON` per check, then
`N passed, N failed`; exits 1 when a check failed. Installs nothing: .ci/run and `make deps` do.
"""

import configparser
import json
import os
import re
import shlex
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import kubernetes_validate
import yaml
from dockerfile_parse import DockerfileParser

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UNIT = os.path.join(ROOT, "deploy/systemd/partgate.service")
DOCKERFILE = os.path.join(ROOT, "deploy/container/Dockerfile")
CONTAINER_CONFIG = os.path.join(ROOT, "deploy/container/partgate.yaml")
KUBERNETES = os.path.join(ROOT, "deploy/kubernetes")
CONFIG_PATH = "/etc/partgate/partgate.yaml"
# The oldest Kubernetes minor still commonly run, and the newest schema the installed validator bundles.
KUBERNETES_VERSIONS = ["1.29.0", kubernetes_validate.latest_version()]


class CheckFailed(Exception):
    """A check's reason for failing."""


def require(condition, reason):
    if not condition:
        raise CheckFailed(reason)


def seconds(duration):
    """A partgate duration (`30s`, `1m30s`, `250ms`) in seconds."""
    units = {"h": 3600, "m": 60, "s": 1, "ms": 0.001}
    pieces = re.findall(r"(\d+)(ms|h|m|s)", duration)
    require(pieces and "".join(n + u for n, u in pieces) == duration, f"not a duration: {duration!r}")
    return sum(int(n) * units[u] for n, u in pieces)


def default_drain_timeout():
    """limits.drain_timeout's default, from the configuration reference (docs/configuration.md)."""
    with open(os.path.join(ROOT, "docs/configuration.md"), encoding="utf-8") as file:
        for line in file:
            if line.startswith("| `limits.drain_timeout`"):
                return seconds(line.split("|")[3].strip().strip("`"))
    raise CheckFailed("docs/configuration.md has no limits.drain_timeout row")


def drain_timeout(config):
    """The drain timeout a parsed partgate configuration gives, in seconds."""
    value = (config.get("limits") or {}).get("drain_timeout")
    return seconds(value) if value else default_drain_timeout()


def port(address):
    return int(address.rsplit(":", 1)[1])


def run(arguments, **options):
    return subprocess.run(arguments, capture_output=True, text=True, timeout=120, **options)


def partgate_check(binary, path):
    result = run([binary, "check", "--config", path])
    require(result.returncode == 0, f"partgate check exited {result.returncode}: {result.stderr.strip()}")
    require(result.stdout.startswith(f"{path}: ok"), f"partgate check printed {result.stdout!r}")



class Serving:
    """`partgate serve` on `config` with every listener and the admin listener moved to 127.0.0.1:0 (so that
    checks never collide on fixed ports), in `folder` (relative paths resolve there). Stops it with SIGTERM on
    exit and records the exit status; SIGKILL if it has not exited 15 s later."""

    def __init__(self, binary, config, folder):
        config = dict(config)
        config["listeners"] = [dict(listener, address="127.0.0.1:0") for listener in config["listeners"]]
        if config.get("admin"):
            config["admin"] = dict(config["admin"], address="127.0.0.1:0")
        self.path = os.path.join(folder, "serve-check.yaml")
        with open(self.path, "w", encoding="utf-8") as file:
            yaml.safe_dump(config, file)
        self.binary = binary
        self.exit_status = None

    def __enter__(self):
        self.process = subprocess.Popen([self.binary, "serve", "--config", self.path], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        self.admin_port = None
        deadline = time.monotonic() + 15
        buffered = b""
        while self.admin_port is None and time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.2)
            if not ready:
                if self.process.poll() is not None:
                    break
                continue
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                break
            buffered += chunk
            for line in buffered.split(b"\n"):
                if b'"admin":"true"' in line and b'"listening"' in line:
                    self.admin_port = port(json.loads(line)["address"])
        if self.admin_port is None:
            self.__exit__(None, None, None)
            raise CheckFailed(f"partgate serve logged no admin listener: {buffered.decode(errors='replace')[-500:]}")
        return self

    def get(self, path):
        """The status of GET http://127.0.0.1:ADMIN/path."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.admin_port}{path}", timeout=5) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def __exit__(self, *_):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.exit_status = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        self.process.stderr.close()
        return False


# systemd


def unit_sections():
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str
    with open(UNIT, encoding="utf-8") as file:
        parser.read_file(file)
    return parser


def scratch_root(binary):
    """A root for `systemd-analyze --root`: the unit, the system's units, /bin/kill and partgate at its path."""
    root = tempfile.mkdtemp(prefix="partgate-unit-")
    units = "/usr/lib/systemd/system"
    shutil.copytree(units, os.path.join(root, units.lstrip("/")), symlinks=True)
    os.makedirs(os.path.join(root, "etc/systemd/system"))
    shutil.copy(UNIT, os.path.join(root, "etc/systemd/system/partgate.service"))
    service = unit_sections()["Service"]
    for line in [service["ExecStart"], service["ExecStartPre"], service["ExecReload"]]:
        executable = shlex.split(line.lstrip("-@:+!"))[0]
        target = os.path.join(root, executable.lstrip("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(binary if executable.endswith("/partgate") else executable, target)
    return root


def check_unit_verifies(binary):
    root = scratch_root(binary)
    try:
        result = run(["systemd-analyze", "verify", "--man=no", f"--root={root}", "/etc/systemd/system/partgate.service"])
    finally:
        shutil.rmtree(root)
    said = (result.stdout + result.stderr).strip()
    require(result.returncode == 0 and not said, f"systemd-analyze verify (exit {result.returncode}): {said}")


def check_unit_hardening(_):
    service = unit_sections()["Service"]
    expected = {
        "DynamicUser": "yes",
        "ProtectSystem": "strict",
        "NoNewPrivileges": "yes",
        "CapabilityBoundingSet": "CAP_NET_BIND_SERVICE",
        "AmbientCapabilities": "CAP_NET_BIND_SERVICE",
        "ExecReload": "/bin/kill -HUP $MAINPID",
        "ExecStart": f"/usr/local/bin/partgate serve --config {CONFIG_PATH}",
        "ExecStartPre": f"/usr/local/bin/partgate check --config {CONFIG_PATH}",
        "KillSignal": "SIGTERM",
    }
    for key, value in expected.items():
        require(service.get(key) == value, f"[Service] {key}={service.get(key)!r}, expected {value!r}")
    require(int(service.get("LimitNOFILE", "0")) >= 65536, "LimitNOFILE below 65536")
    stop_value = service.get("TimeoutStopSec", "0")
    stop = int(stop_value) if stop_value.isdigit() else seconds(stop_value)  # systemd: a bare number is seconds
    drain = default_drain_timeout()
    require(stop > drain, f"TimeoutStopSec ({stop}s) must exceed limits.drain_timeout ({drain}s)")


def check_unit_exposure(binary):
    root = scratch_root(binary)
    try:
        result = run(["systemd-analyze", "security", "--offline=true", f"--root={root}", "--no-pager",
                      "/etc/systemd/system/partgate.service"])
    finally:
        shutil.rmtree(root)
    match = re.search(r"Overall exposure level for partgate.service: (\d+\.\d+)", result.stdout)
    require(match, f"no exposure level in: {result.stdout[-300:]}{result.stderr}")
    level = float(match.group(1))
    require(level <= 2.5, f"exposure level {level} above 2.5")
    return f"exposure {level}"


# container


def dockerfile():
    parser = DockerfileParser(path=DOCKERFILE)
    return parser


def stages(parser):
    """The instructions grouped per stage; ARGs before the first FROM come first as stage -1."""
    groups = [[]]
    for instruction in parser.structure:
        if instruction["instruction"] == "FROM":
            groups.append([])
        groups[-1].append(instruction)
    return groups[0], groups[1:]


def base_image(instruction, global_args):
    image = instruction["value"].split()[0]
    return re.sub(r"\$\{?(\w+)\}?", lambda m: global_args.get(m.group(1), m.group(0)), image)


RELEASE_BUILD = "scripts/release-build.sh"


def check_dockerfile_stages(_):
    parser = dockerfile()
    preamble, groups = stages(parser)
    require(len(groups) >= 2, f"{len(groups)} stage(s): expected a build stage and a runtime stage")
    args = {}
    for instruction in preamble:
        if instruction["instruction"] == "ARG" and "=" in instruction["value"]:
            name, value = instruction["value"].split("=", 1)
            args[name.strip()] = value.strip()
    images = [base_image(group[0], args) for group in groups]
    for image in images:
        last = image.split("@")[0].split("/")[-1]
        tag = last.split(":", 1)[1] if ":" in last else ""
        require(tag and tag != "latest" and re.search(r"\d", tag), f"base image {image!r} is not pinned to a version")
    require(re.fullmatch(r"swift:6\.\d+(\.\d+)?-\w+", images[0]), f"build stage image {images[0]!r} is not swift:6.x")
    require(images[-1].startswith("debian:") and "slim" in images[-1], f"runtime image {images[-1]!r} is not Debian slim")
    # The release build has one definition, scripts/release-build.sh: `make build` and the image both run it.
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as file:
        build_target = re.search(r"^build:.*\n((?:\t.*\n)+)", file.read(), re.M)
    require(build_target and RELEASE_BUILD in build_target.group(1), f"`make build` does not run {RELEASE_BUILD}")
    builds = [i["value"] for i in groups[0] if i["instruction"] == "RUN"]
    require(any(value.startswith(RELEASE_BUILD) for value in builds), f"no RUN {RELEASE_BUILD} in the build stage")
    return " -> ".join(images)


def check_dockerfile_runtime(_):
    parser = dockerfile()
    _, groups = stages(parser)
    runtime = groups[-1]
    every = [i for group in groups for i in group]
    require(not any(i["instruction"] == "ADD" for i in every), "ADD used (remote URLs and archives): use COPY")
    installs = " ".join(i["value"] for i in runtime if i["instruction"] == "RUN")
    for package in ["libevent-2.1-7", "libevent-openssl-2.1-7", "libevent-pthreads-2.1-7", "libssl3"]:
        require(re.search(rf"(^|\s){re.escape(package)}(\s|$)", installs), f"runtime stage does not install {package}")
    names = [i["instruction"] for i in runtime]
    require("USER" in names, "runtime stage has no USER")
    user = [i["value"] for i in runtime if i["instruction"] == "USER"][-1].split(":")[0]
    require(user not in ("root", "0"), f"runtime stage runs as {user}")
    require(names.index("USER") < names.index("ENTRYPOINT"), "USER comes after ENTRYPOINT")
    entrypoint = [i["value"] for i in runtime if i["instruction"] == "ENTRYPOINT"][-1]
    require(yaml.safe_load(entrypoint) == ["/usr/local/bin/partgate", "serve", "--config", CONFIG_PATH],
            f"ENTRYPOINT is {entrypoint}")
    copies = [i["value"] for i in runtime if i["instruction"] == "COPY"]
    require(f"deploy/container/partgate.yaml {CONFIG_PATH}" in copies, "the default configuration is not copied")
    return f"USER {user}"


def check_dockerfile_ports(binary):
    with open(CONTAINER_CONFIG, encoding="utf-8") as file:
        config = yaml.safe_load(file)
    listener_ports = {port(listener["address"]) for listener in config["listeners"]}
    admin_port = port(config["admin"]["address"])
    _, groups = stages(dockerfile())
    runtime = groups[-1]
    exposed = {int(p.split("/")[0]) for i in runtime if i["instruction"] == "EXPOSE" for p in i["value"].split()}
    require(listener_ports | {admin_port} <= exposed, f"EXPOSE {sorted(exposed)} lacks {sorted(listener_ports | {admin_port})}")
    healthchecks = [i["value"] for i in runtime if i["instruction"] == "HEALTHCHECK"]
    require(len(healthchecks) == 1, "the runtime stage needs one HEALTHCHECK")
    require(f"http://127.0.0.1:{admin_port}/healthz" in healthchecks[0], f"HEALTHCHECK does not probe /healthz on {admin_port}")
    require(re.search(r"curl.*(\s|\")(-[a-zA-Z]*f[a-zA-Z]*|--fail)(\s|\")", healthchecks[0]),
            "HEALTHCHECK's curl lacks -f: a 503 would count as healthy")
    partgate_check(binary, CONTAINER_CONFIG)
    return f"listeners {sorted(listener_ports)}, admin {admin_port}"


def check_container_healthcheck_runs(binary):
    """The image's HEALTHCHECK command, run against `partgate serve` on the default configuration, passes."""
    with open(CONTAINER_CONFIG, encoding="utf-8") as file:
        config = yaml.safe_load(file)
    admin_port = port(config["admin"]["address"])
    _, groups = stages(dockerfile())
    healthcheck = [i["value"] for i in groups[-1] if i["instruction"] == "HEALTHCHECK"][0]
    command = json.loads(healthcheck.split("CMD", 1)[1].strip())
    require(shutil.which(command[0]), f"{command[0]} is not installed here")
    folder = tempfile.mkdtemp(prefix="partgate-container-")
    try:
        with Serving(binary, config, folder) as serving:
            moved = [word.replace(f"127.0.0.1:{admin_port}/", f"127.0.0.1:{serving.admin_port}/") for word in command]
            result = run(moved)
            require(result.returncode == 0, f"HEALTHCHECK {moved} exited {result.returncode}: {result.stderr.strip()}")
        require(serving.exit_status == 0, f"partgate serve exited {serving.exit_status} after SIGTERM")
    finally:
        shutil.rmtree(folder)
    return "curl /healthz: 0; SIGTERM: exit 0"


def check_dockerignore(_):
    with open(os.path.join(ROOT, ".dockerignore"), encoding="utf-8") as file:
        patterns = [line.strip() for line in file if line.strip() and not line.startswith("#")]
    for needed in [".git", ".build", ".build*"]:
        require(needed in patterns, f".dockerignore does not exclude {needed}")
    _, groups = stages(dockerfile())
    for group in groups:
        for instruction in group:
            if instruction["instruction"] != "COPY" or instruction["value"].startswith("--from"):
                continue
            for source in instruction["value"].split()[:-1]:
                require(os.path.exists(os.path.join(ROOT, source)), f"COPY {source}: no such file in the context")
                require(not any(source == p or source.startswith(p.rstrip("/") + "/") for p in patterns),
                        f"COPY {source} is excluded by .dockerignore")
    # The files the release build reads (the script, the function order, the profile) must reach the build stage
    # through `COPY . .`.
    with open(os.path.join(ROOT, RELEASE_BUILD), encoding="utf-8") as file:
        defaults = re.findall(r"\$\{(?:ORDER_FILE|PROFILE)-(\S+?)\}", file.read())
    require(len(defaults) == 2, f"{RELEASE_BUILD} names {len(defaults)} default input files, expected the order and the profile")
    for path in [RELEASE_BUILD] + defaults:
        require(os.path.exists(os.path.join(ROOT, path)), f"the release build reads {path}: no such file")
        excluded = any(path == p or path.startswith(p.rstrip("/*") + "/") for p in patterns if not p.startswith("!"))
        require(not excluded or f"!{path}" in patterns, f"{path} (read by the release build) is excluded by .dockerignore")


# Kubernetes


def manifests():
    documents = {}
    for name in sorted(os.listdir(KUBERNETES)):
        if name.endswith(".yaml"):
            with open(os.path.join(KUBERNETES, name), encoding="utf-8") as file:
                for document in yaml.safe_load_all(file):
                    if document:
                        documents.setdefault(document["kind"], []).append((name, document))
    return documents


def one(documents, kind):
    require(len(documents.get(kind, [])) == 1, f"expected one {kind}, found {len(documents.get(kind, []))}")
    return documents[kind][0][1]


def check_kubernetes_schemas(_):
    documents = manifests()
    count = 0
    for kind, entries in documents.items():
        for name, document in entries:
            for version in KUBERNETES_VERSIONS:
                try:
                    kubernetes_validate.validate(document, version, strict=True)
                except kubernetes_validate.ValidationError as error:
                    raise CheckFailed(f"{name}: {kind} against {version}: {error.message} at {list(error.path)}")
            count += 1
    for kind in ["Deployment", "Service", "ConfigMap", "PodDisruptionBudget", "HorizontalPodAutoscaler"]:
        one(documents, kind)
    require(one(documents, "HorizontalPodAutoscaler")["apiVersion"] == "autoscaling/v2", "HPA is not autoscaling/v2")
    return f"{count} documents against {', '.join(KUBERNETES_VERSIONS)} (strict)"


def kubernetes_config(documents):
    return yaml.safe_load(one(documents, "ConfigMap")["data"]["partgate.yaml"])


def check_kubernetes_deployment(_):
    documents = manifests()
    deployment = one(documents, "Deployment")
    config = kubernetes_config(documents)
    pod = deployment["spec"]["template"]["spec"]
    require(len(pod["containers"]) == 1, "one container expected")
    container = pod["containers"][0]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    admin_port = port(config["admin"]["address"])
    require(ports.get("admin") == admin_port, f"container port 'admin' {ports.get('admin')} != config {admin_port}")
    listener_ports = {port(listener["address"]) for listener in config["listeners"]}
    require(listener_ports <= set(ports.values()), f"listener ports {listener_ports} not all container ports")
    for probe, path in [("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")]:
        get = container.get(probe, {}).get("httpGet", {})
        require(get.get("path") == path and get.get("port") in ("admin", admin_port), f"{probe} is not {path} on admin")
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    require(command[0] == "/bin/sleep", f"preStop is {command}")
    pre_stop = int(command[1])
    grace = pod["terminationGracePeriodSeconds"]
    drain = drain_timeout(config)
    require(grace >= pre_stop + drain, f"terminationGracePeriodSeconds {grace} < preStop {pre_stop} + drain {drain}")
    for side in ["requests", "limits"]:
        for resource in ["cpu", "memory"]:
            require(resource in container.get("resources", {}).get(side, {}), f"no {side}.{resource}")
    security = container["securityContext"]
    require(pod["securityContext"].get("runAsNonRoot") is True, "pod is not runAsNonRoot")
    require(pod["securityContext"].get("runAsUser", 0) != 0, "pod runs as uid 0")
    require(security.get("readOnlyRootFilesystem") is True, "root file system is writable")
    require(security.get("allowPrivilegeEscalation") is False, "privilege escalation allowed")
    require(security.get("capabilities", {}).get("drop") == ["ALL"], "capabilities not dropped")
    mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    require("emptyDir" in volumes.get(mounts.get("/tmp"), {}), "/tmp is not a writable emptyDir (spool files)")
    require(os.path.dirname(CONFIG_PATH) in mounts, f"nothing mounted at {os.path.dirname(CONFIG_PATH)}")
    service = one(documents, "Service")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    for kind, selector in [("Service", service["spec"]["selector"]),
                           ("Deployment", deployment["spec"]["selector"]["matchLabels"]),
                           ("PodDisruptionBudget", one(documents, "PodDisruptionBudget")["spec"]["selector"]["matchLabels"])]:
        require(selector.items() <= labels.items(), f"{kind} selector {selector} does not select the pods {labels}")
    for service_port in service["spec"]["ports"]:
        require(service_port["targetPort"] in ports or service_port["targetPort"] in ports.values(),
                f"Service targetPort {service_port['targetPort']} is no container port")
    target = one(documents, "HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]
    require((target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"]), "HPA target")
    return f"grace {grace}s >= preStop {pre_stop}s + drain {drain:g}s"


def check_kubernetes_config(binary):
    """The ConfigMap's partgate.yaml, laid out as the Deployment's projected volume lays it out, passes check."""
    documents = manifests()
    deployment = one(documents, "Deployment")
    configmap = one(documents, "ConfigMap")
    pod = deployment["spec"]["template"]["spec"]
    mounts = {m["mountPath"]: m["name"] for m in pod["containers"][0]["volumeMounts"]}
    volume = next(v for v in pod["volumes"] if v["name"] == mounts[os.path.dirname(CONFIG_PATH)])
    folder = tempfile.mkdtemp(prefix="partgate-k8s-")
    try:
        secrets = []
        for source in volume["projected"]["sources"]:
            if "configMap" in source:
                require(source["configMap"]["name"] == configmap["metadata"]["name"], "projects another ConfigMap")
                for item in source["configMap"]["items"]:
                    write(folder, item["path"], configmap["data"][item["key"]])
            elif "secret" in source:
                items = {item["key"]: item["path"] for item in source["secret"]["items"]}
                require(set(items) == {"tls.crt", "tls.key"}, f"Secret items {sorted(items)}: a kubernetes.io/tls pair")
                certificate, key = make_certificate()
                write(folder, items["tls.crt"], certificate)
                write(folder, items["tls.key"], key)
                secrets.append(source["secret"]["name"])
        require(secrets, "no Secret projected for the TLS certificate and key")
        path = os.path.join(folder, os.path.basename(CONFIG_PATH))
        require(os.path.exists(path), f"the projection has no {os.path.basename(CONFIG_PATH)}")
        partgate_check(binary, path)
        config = kubernetes_config(documents)
        require(any("tls" in listener for listener in config["listeners"]), "no TLS listener uses the Secret")
        # The probes, against partgate serve on this configuration: liveness must pass; readiness must answer
        # (200, or 503 here: the upstream's cluster DNS name does not resolve outside the cluster).
        container = pod["containers"][0]
        with Serving(binary, config, folder) as serving:
            live = serving.get(container["livenessProbe"]["httpGet"]["path"])
            ready = serving.get(container["readinessProbe"]["httpGet"]["path"])
        require(live == 200, f"livenessProbe answered {live}")
        require(ready in (200, 503), f"readinessProbe answered {ready}")
        require(serving.exit_status == 0, f"partgate serve exited {serving.exit_status} after SIGTERM")
    finally:
        shutil.rmtree(folder)
    return f"Secret {', '.join(secrets)}; liveness {live}, readiness {ready}"


def write(folder, relative, text):
    path = os.path.join(folder, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)


def make_certificate():
    folder = tempfile.mkdtemp(prefix="partgate-pem-")
    try:
        key, certificate = os.path.join(folder, "key.pem"), os.path.join(folder, "cert.pem")
        result = run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                      "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=partgate"])
        require(result.returncode == 0, f"openssl req: {result.stderr}")
        with open(certificate, encoding="utf-8") as c, open(key, encoding="utf-8") as k:
            return c.read(), k.read()
    finally:
        shutil.rmtree(folder)


CHECKS = [
    check_unit_verifies,
    check_unit_hardening,
    check_unit_exposure,
    check_dockerfile_stages,
    check_dockerfile_runtime,
    check_dockerfile_ports,
    check_container_healthcheck_runs,
    check_dockerignore,
    check_kubernetes_schemas,
    check_kubernetes_deployment,
    check_kubernetes_config,
]


def main():
    if len(sys.argv) != 2 or not os.access(sys.argv[1], os.X_OK):
        print("usage: check_deploy.py PARTGATE_BINARY (an executable partgate)", file=sys.stderr)
        return 1
    binary = os.path.abspath(sys.argv[1])
    passed = failed = 0
    for check in CHECKS:
        name = check.__name__.removeprefix("check_")
        try:
            note = check(binary)
        except CheckFailed as error:
            failed += 1
            print(f"FAIL {name}: {error}")
        except Exception as error:  # a crash in a check is a failure of that check, named
            failed += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}")
        else:
            passed += 1
            print(f"ok   {name}" + (f" ({note})" if note else ""))
    print(f"deploy: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""The fleet's parts: a PostgreSQL cluster (scripts/pg-cluster.sh), staysearch replicas following it, haproxy in
front, and HTTP helpers. Standard library only. BIN names the staysearch binary (default .build/debug/staysearch)."""
import http.client as httpclient
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.abspath(os.environ.get("BIN", os.path.join(ROOT, ".build/debug/staysearch")))
KEY = "fleet-" + os.urandom(12).hex()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None, key=None, timeout=30):
    """(status, text) of one request."""
    request = urllib.request.Request(url, data=body.encode() if body is not None else None, method=method)
    if key:
        request.add_header("Authorization", "Bearer " + key)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


class Connections:
    """Keep-alive HTTP connections, one per server, for one thread (the figures' load generators: a new TCP
    connection per request would cost the machine more than the requests)."""

    def __init__(self):
        self.open = {}

    def request(self, method, base, path, body=None, key=None):
        """(status, text) of one request; a connection the server closed is opened again once."""
        headers = {"Authorization": "Bearer " + key} if key else {}
        for attempt in (1, 2):
            connection = self.open.get(base)
            if connection is None:
                host, port = base.rsplit("/", 1)[1].split(":")
                connection = self.open[base] = httpclient.HTTPConnection(host, int(port), timeout=60)
            try:
                connection.request(method, path, body=body.encode() if body is not None else None, headers=headers)
                response = connection.getresponse()
                return response.status, response.read().decode()
            except (httpclient.HTTPException, OSError):
                connection.close()
                del self.open[base]
                if attempt == 2:
                    raise


def staysearch(*args, check=True):
    result = subprocess.run([BIN, *args], capture_output=True, text=True)
    if check and result.returncode != 0:
        sys.exit(f"fleet: staysearch {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}")
    return result


def start_haproxy(work, port, servers):
    """haproxy on 127.0.0.1:`port` in front of `servers` ([(name, "host:port")]): searches and writes to the
    replicas whose /healthz answers 200, in turn. When none does (the database itself is away, so every
    replica falls behind at once), to every replica still listening: a search a few seconds stale beats none,
    and a write is answered by its replica (503 database_unreachable) instead of by haproxy."""
    config = os.path.join(work, "haproxy.cfg")
    # (The same lines in both backends: checked by /healthz in the first, by a TCP connection in the second.)
    lines = "\n".join(f"    server {name} {address} check inter 1s fall 2 rise 1" for name, address in servers)
    with open(config, "w") as f:
        f.write(f"""global
    maxconn 4096
defaults
    mode http
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    retries 2
    option redispatch
frontend staysearch
    bind 127.0.0.1:{port}
    use_backend listening if {{ nbsrv(replicas) eq 0 }}
    default_backend replicas
backend replicas
    balance roundrobin
    option httpchk GET /healthz
{lines}
backend listening
    balance roundrobin
{lines}
""")
    proxy = subprocess.Popen(["haproxy", "-f", config, "-db"], stdout=subprocess.DEVNULL,
                             stderr=open(os.path.join(work, "haproxy.log"), "w"))
    for _ in range(100):
        try:
            if http("GET", f"http://127.0.0.1:{port}/healthz", timeout=2)[0] == 200:
                return proxy
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit("fleet: haproxy did not start (see haproxy.log)")


class Replica:
    def __init__(self, fleet, number):
        self.fleet, self.number = fleet, number
        self.index = os.path.join(fleet.work, f"replica{number}.ssx")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        log = open(os.path.join(self.fleet.work, f"replica{self.number}.log"), "a")
        self.process = subprocess.Popen(
            [BIN, "serve", "--index", self.index, "--follow", self.fleet.url_for(self.number), "--port", str(self.port),
             "--write-key-file", self.fleet.keys], stdout=log, stderr=log)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if http("GET", self.base + "/healthz", timeout=2)[0] in (200, 503):
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                sys.exit(f"fleet: replica {self.number} exited: see {log.name}")
            time.sleep(0.1)
        sys.exit(f"fleet: replica {self.number} did not start")

    def stop(self, sig=signal.SIGTERM):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                print(f"fleet: warning: replica {self.number} did not stop within 20 s of SIGTERM; killed. The end of its log:")
                with open(os.path.join(self.fleet.work, f"replica{self.number}.log")) as log:
                    for line in log.readlines()[-8:]:
                        print("  " + line.rstrip())
                self.process.kill()
                self.process.wait()

    def health(self):
        status, text = http("GET", self.base + "/healthz")
        return status, json.loads(text)


class Fleet:
    def __init__(self, replicas=3):
        self.work = tempfile.mkdtemp(prefix="staysearch-fleet.")
        os.chmod(self.work, 0o755)
        self.cluster = os.path.join(self.work, "pg")
        self.keys = os.path.join(self.work, "keys.txt")
        with open(self.keys, "w") as f:
            f.write(KEY + "\n")
        self.url = None
        self.replicas = [Replica(self, n + 1) for n in range(replicas)]
        self.proxy = None

    def url_for(self, replica):
        """The database URL replica `replica` follows: the last replica reaches it over TLS, its certificate
        verified, when the cluster speaks TLS (scripts/pg-cluster.sh, with openssl)."""
        ca = os.path.join(self.cluster, "ca.pem")
        if replica == len(self.replicas) and os.path.exists(ca):
            return f"{self.url}?sslmode=verify-full&sslrootcert={ca}"
        return self.url

    def pg(self, *args):
        result = subprocess.run(["bash", os.path.join(ROOT, "scripts/pg-cluster.sh"), *args], capture_output=True, text=True)
        if result.returncode != 0:
            sys.exit(f"fleet: pg-cluster.sh {args[0]} failed: {result.stderr.strip()}")
        return result.stdout.strip()

    def psql(self, sql):
        port = self.url.rsplit(":", 1)[1].split("/")[0]
        result = subprocess.run(["psql", "-h", "127.0.0.1", "-p", port, "-U", "staysearch", "-d", "stays", "-Atqc", sql],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(result.stderr.strip())
        return result.stdout.strip()

    def start(self, data=os.path.join(ROOT, "Data/antwerp"), url=None):
        """The database loaded and the replicas started; `url`: a database someone else runs (a
        pg_auto_failover formation), else a cluster of scripts/pg-cluster.sh started here."""
        self.external = url is not None
        self.url = url or self.pg("start", self.cluster, str(free_port()))
        staysearch("db", "init", self.url)
        print("fleet:", staysearch("db", "load", self.url, "Antwerp=" + data).stdout.strip())
        # The shipped sample is a 2024 scrape: the fleet runs at its own date (docs/fleet.md, "Today").
        print("fleet:", staysearch("db", "clock", self.url, "--scrape-date").stdout.strip())
        snapshot = os.path.join(self.work, "snapshot.ssx")
        print("fleet:", staysearch("import", "--from", self.url, "--output", snapshot).stdout.strip())
        for replica in self.replicas:
            shutil.copy(snapshot, replica.index)
            replica.start()
        print(f"fleet: {len(self.replicas)} replicas on ports {', '.join(str(r.port) for r in self.replicas)}; database {self.url}")

    def start_proxy(self, port):
        self.proxy = start_haproxy(self.work, port, [(f"replica{r.number}", f"127.0.0.1:{r.port}") for r in self.replicas])

    def stop(self, keep=False):
        if self.proxy:
            self.proxy.terminate()
            self.proxy.wait(10)
        for replica in self.replicas:
            replica.stop()
        if self.url and not getattr(self, "external", False):
            self.pg("stop", self.cluster)
        if not keep:
            shutil.rmtree(self.work, ignore_errors=True)

    def latest_position(self):
        return int(self.psql("SELECT coalesce(max(position), 0) FROM change_log"))

    def wait_caught_up(self, timeout=120):
        target = self.latest_position()
        deadline = time.time() + timeout
        for replica in self.replicas:
            while True:
                status, health = replica.health()
                if health["applied_position"] >= target:
                    break
                if time.time() > deadline:
                    raise AssertionError(f"replica {replica.number} stuck at {health} (target {target})")
                time.sleep(0.05)
        return target

"""Hosts apart on one machine: network namespaces joined by a bridge, and a PostgreSQL pair kept by
pg_auto_failover (a monitor, a primary and a synchronous standby) running in them. Needs root (ip netns)."""
import os
import shutil
import subprocess
import time

NET = "10.77.0"
BRIDGE = "ssfail0"
PG_BIN = next((f"/usr/lib/postgresql/{v}/bin" for v in sorted(os.listdir("/usr/lib/postgresql"), reverse=True)), None) \
    if os.path.isdir("/usr/lib/postgresql") else None


def run(*command, check=True):
    result = subprocess.run(command, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {(result.stderr or result.stdout).strip()}")
    return result.stdout.strip()


class Hosts:
    """Each name a namespace `ss-NAME` with one address, 10.77.0.OCTET, on a bridge whose own address (the
    machine's, 10.77.0.1) the processes left in the root namespace (the monitor, haproxy, the clients) use."""

    machine = f"{NET}.1"
    network = f"{NET}.0/24"

    def __init__(self, octets):
        self.octets = octets

    def address(self, name):
        return f"{NET}.{self.octets[name]}"

    def create(self):
        if os.geteuid() != 0:
            raise SystemExit("fleet failover: the hosts are network namespaces, which only root can make: run it as root (CI does)")
        self.remove()
        try:
            run("ip", "link", "add", BRIDGE, "type", "bridge")
        except (RuntimeError, FileNotFoundError) as error:
            raise SystemExit(f"fleet failover: cannot make the hosts' network ({error}); it needs root, iproute2 and a kernel with bridges and namespaces")
        run("ip", "addr", "add", f"{NET}.1/24", "dev", BRIDGE)
        run("ip", "link", "set", BRIDGE, "up")
        for name, octet in self.octets.items():
            namespace, outside = f"ss-{name}", f"ssv-{name}"
            run("ip", "netns", "add", namespace)
            run("ip", "link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", namespace)
            run("ip", "link", "set", outside, "master", BRIDGE, "up")
            run("ip", "-n", namespace, "addr", "add", f"{NET}.{octet}/24", "dev", "eth0")
            run("ip", "-n", namespace, "link", "set", "eth0", "up")
            run("ip", "-n", namespace, "link", "set", "lo", "up")

    def remove(self):
        for name in self.octets:
            run("ip", "netns", "del", f"ss-{name}", check=False)
            run("ip", "link", "del", f"ssv-{name}", check=False)
        run("ip", "link", "del", BRIDGE, check=False)

    def command(self, name, *command):
        """`command` run inside host `name`."""
        return ["ip", "netns", "exec", f"ss-{name}", *command]

    def unplug(self, name):
        """Host `name` cut from every other (its cable pulled)."""
        run("ip", "link", "set", f"ssv-{name}", "down")

    def plug(self, name):
        run("ip", "link", "set", f"ssv-{name}", "up")

    def block(self, name, *others):
        """Host `name` can no longer reach `others` (nor they it: their packets' answers are dropped)."""
        for other in others:
            run("ip", "-n", f"ss-{name}", "route", "add", "blackhole", f"{self.address(other)}/32")

    def unblock(self, name, *others):
        for other in others:
            run("ip", "-n", f"ss-{name}", "route", "del", "blackhole", f"{self.address(other)}/32")


class Loopback:
    """Every node on this machine's loopback (`make fleet`): no namespaces, no root needed."""

    machine = "127.0.0.1"
    network = "127.0.0.1/32"

    def address(self, name):
        return "127.0.0.1"

    def command(self, name, *command):
        return list(command)


def as_postgres(command):
    """`command` run as the 'postgres' user when run by root (PostgreSQL refuses root), else as it is."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else list(command)


class AutoFailover:
    """pg_auto_failover's monitor (in the root namespace, on the bridge's address) and its nodes, each in its
    own host. Every process runs as the 'postgres' user; the folders live under `work`."""

    # The monitor's health checks and timeouts, tightened from the defaults (5 s checks, 20 s to call a node
    # unhealthy, 30 s before a lost primary's standby is promoted) to fail over in seconds. A primary cut off
    # from the monitor and its standby demotes itself after the keepers' network_partition_timeout (3 s
    # here); the monitor promotes only after primary_demote_timeout (8 s), so two primaries never take writes.
    MONITOR_SETTINGS = {
        "pgautofailover.health_check_period": "1000",
        "pgautofailover.health_check_timeout": "1000",
        "pgautofailover.health_check_max_retries": "1",
        "pgautofailover.health_check_retry_delay": "500",
        "pgautofailover.node_considered_unhealthy_timeout": "3000",
        "pgautofailover.primary_demote_timeout": "8000",
    }
    KEEPER_SETTINGS = {"timeout.network_partition_timeout": "3"}
    # A standby whose link is gone is noticed by its walsender in seconds instead of a minute.
    NODE_SETTINGS = {"wal_sender_timeout": "3s", "wal_receiver_timeout": "3s"}

    def __init__(self, hosts, work, monitor_port=6010):
        self.hosts, self.work = hosts, work
        self.monitor_port = monitor_port
        self.monitor = os.path.join(work, "monitor")
        self.nodes = {}  # name -> (host, port)
        self.processes = {}
        os.makedirs(os.path.join(work, "run"), exist_ok=True)
        if os.geteuid() == 0:
            for folder in (work, os.path.join(work, "run")):
                shutil.chown(folder, "postgres", "postgres")

    def environment(self, name):
        return ["env", f"PATH={PG_BIN}:/usr/bin:/bin", f"XDG_CONFIG_HOME={self.work}/{name}.config",
                f"XDG_DATA_HOME={self.work}/{name}.share", f"XDG_RUNTIME_DIR={self.work}/run"]

    def autoctl(self, name, *args, host=None, check=True):
        command = as_postgres([*self.environment(name), "pg_autoctl", *args])
        return run(*(self.hosts.command(host, *command) if host else command), check=check)

    def start_process(self, name, args, host=None):
        command = as_postgres([*self.environment(name), "pg_autoctl", *args])
        log = open(os.path.join(self.work, f"{name}.log"), "a")
        self.processes[name] = subprocess.Popen(self.hosts.command(host, *command) if host else command,
                                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    @property
    def monitor_uri(self):
        return f"postgres://autoctl_node@{self.hosts.machine}:{self.monitor_port}/pg_auto_failover?sslmode=disable"

    def start_monitor(self):
        self.autoctl("monitor", "create", "monitor", "--pgdata", self.monitor, "--pgport", str(self.monitor_port),
                     "--hostname", self.hosts.machine, "--auth", "trust", "--no-ssl")
        with open(os.path.join(self.monitor, "postgresql.conf"), "a") as conf:
            conf.writelines(f"{key} = {value}\n" for key, value in self.MONITOR_SETTINGS.items())
        self.start_process("monitor", ["run", "--pgdata", self.monitor])
        self.wait(lambda: self.autoctl("monitor", "show", "state", "--pgdata", self.monitor) is not None, "the monitor to start")

    def create_node(self, name, host, port):
        """A node of the formation in `host`: the first becomes the primary, the next its synchronous standby
        (its base backup taken from the primary, whose checkpoints are hurried along meanwhile)."""
        others = list(self.nodes)
        self.nodes[name] = (host, port)
        data = os.path.join(self.work, name)
        command = as_postgres([*self.environment(name), "pg_autoctl", "create", "postgres", "--pgdata", data,
                               "--pgport", str(port), "--hostname", self.hosts.address(host), "--auth", "trust", "--no-ssl", "--monitor",
                               self.monitor_uri, "--dbname", "stays", "--username", "staysearch", "--name", name, "--pg-hba-lan"])
        with open(os.path.join(self.work, f"{name}.log"), "a") as log:
            creating = subprocess.Popen(self.hosts.command(host, *command), stdout=log, stderr=subprocess.STDOUT)
            deadline = time.time() + 180
            while creating.poll() is None:
                if time.time() > deadline:
                    creating.kill()
                    raise AssertionError(f"pg_autoctl create of {name} did not finish in 180 s (see {log.name})")
                for other in others:
                    self.checkpoint(other)
                time.sleep(1)
        if creating.returncode != 0:
            raise AssertionError(f"pg_autoctl create of {name} failed (see {self.work}/{name}.log)")
        for key, value in self.KEEPER_SETTINGS.items():
            self.autoctl(name, "config", "set", "--pgdata", data, key, value, host=host)
        with open(os.path.join(data, "postgresql.conf"), "a") as conf:
            conf.writelines(f"{key} = '{value}'\n" for key, value in self.NODE_SETTINGS.items())
        # pg_rewind (an old primary rejoining as a standby) reads the new primary over an ordinary connection,
        # which pg_auto_failover's own rules (replication only) do not let in: without it every rejoin falls
        # back to a whole base backup.
        with open(os.path.join(data, "pg_hba.conf"), "a") as hba:
            hba.write(f"host postgres pgautofailover_replicator {self.hosts.network} trust\n")
        self.start_node(name)

    def start_node(self, name):
        host, _ = self.nodes[name]
        self.start_process(name, ["run", "--pgdata", os.path.join(self.work, name)], host=host)

    def kill_node(self, name, delete=False):
        """Every process of node `name` (its keeper and its PostgreSQL) killed at once, as a lost machine."""
        host, _ = self.nodes[name]
        for pid in run("ip", "netns", "pids", f"ss-{host}", check=False).split():
            try:
                os.kill(int(pid), 9)
            except (ProcessLookupError, ValueError):
                pass
        process = self.processes.pop(name, None)
        if process:
            process.wait()
        if delete:
            shutil.rmtree(os.path.join(self.work, name))
            shutil.rmtree(f"{self.work}/{name}.config", ignore_errors=True)
            shutil.rmtree(f"{self.work}/{name}.share", ignore_errors=True)

    def states(self):
        """{node: (reported state, assigned state)} as the monitor sees them."""
        text = self.autoctl("monitor", "show", "state", "--pgdata", self.monitor, "--json", check=False) or "[]"
        import json
        try:
            rows = json.loads(text)
        except ValueError:
            return {}
        return {row["nodename"]: (row["current_group_state"], row["assigned_group_state"]) for row in rows}

    def wait_states(self, wanted, timeout=120, what=None):
        """Waits until each named node is reported and assigned its wanted state; the time it took."""
        started = time.time()
        self.wait(lambda: all(self.states().get(n) == (s, s) for n, s in wanted.items()), what or f"states {wanted}", timeout)
        return time.time() - started

    def checkpoint(self, name):
        """A checkpoint on node `name`: a standby's base backup starts at once instead of after a spread one."""
        host, port = self.nodes[name]
        run("psql", "-h", self.hosts.address(host), "-p", str(port), "-U", "staysearch", "-d", "stays", "-Atqc", "CHECKPOINT", check=False)

    def psql(self, name, sql, check=True):
        host, port = self.nodes[name]
        return run("psql", "-h", self.hosts.address(host), "-p", str(port), "-U", "staysearch", "-d", "stays", "-Atqc", sql, check=check)

    def url(self):
        """The formation's URL for staysearch: every node, the one taking writes found by trying them in order."""
        hosts = ",".join(f"{self.hosts.address(h)}:{p}" for h, p in self.nodes.values())
        return f"postgres://staysearch@{hosts}/stays?target_session_attrs=read-write"

    def events(self, count=30):
        return self.autoctl("monitor", "show", "events", "--pgdata", self.monitor, "--count", str(count), check=False)

    def stop(self):
        """Every process of the formation stopped: the keepers killed, found by the environment they
        inherit (pg_autoctl renames its processes and outlives its parents), then the servers."""
        def stop_servers():
            # PostgreSQL rewrites its processes' titles over their environment: its servers are stopped by
            # pg_ctl (immediate: the postmaster takes its children with it), not found by the marker.
            for data in [self.monitor] + [os.path.join(self.work, name) for name in self.nodes]:
                if os.path.exists(os.path.join(data, "postmaster.pid")):
                    run(*as_postgres([f"{PG_BIN}/pg_ctl", "stop", "-D", data, "-m", "immediate", "-w", "-t", "10"]), check=False)

        marker = f"XDG_RUNTIME_DIR={self.work}/run".encode()
        for _ in range(50):  # again until none is left: a keeper may fork while others are killed
            found = 0
            for pid in os.listdir("/proc"):
                if not pid.isdigit():
                    continue
                try:
                    # The keepers first, the servers left to pg_ctl: a postmaster killed leaves its children.
                    if os.readlink(f"/proc/{pid}/exe").endswith("/postgres"):
                        continue
                    with open(f"/proc/{pid}/environ", "rb") as f:
                        if marker in f.read().split(b"\0"):
                            os.kill(int(pid), 9)
                            found += 1
                except OSError:
                    pass
            if not found:
                break
            time.sleep(0.1)
        stop_servers()
        for process in self.processes.values():
            process.wait()
        self.processes = {}

    @staticmethod
    def wait(condition, what, timeout=120):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if condition():
                    return
            except (RuntimeError, KeyError):
                pass
            time.sleep(0.2)
        raise AssertionError(f"timed out after {timeout} s waiting for {what}")

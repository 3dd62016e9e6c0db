"""``rulekb bench serve``: the web endpoint under load, beside two peers, in one run.

wrk (``/usr/bin/wrk``, Debian's) drives each scenario for ``duration`` seconds
with ``threads`` threads and ``connections`` connections over loopback; a Lua
script cycles over many URLs (200 rules of the edition, its sections) so a
cache does not answer one URL only, and reports requests, errors and latency
percentiles as JSON from its ``done`` hook. Scenarios:

- ``rule page``    GET the rule IRI as HTML (ours only)
- ``rule turtle``  GET ``/edition/E/rule/N.ttl`` (ours only)
- ``sparql point`` SELECT one rule's text by IRI (GET, SPARQL JSON): every server
- ``sparql join``  rules citing a rule under a section (rk:hasCitation/rk:citationTarget, rk:parent+),
  cycling over the sections that have some: every server
- ``... same URL`` (with ``same_url``): the rule page and point query on one URL only
- ``load``         rule pages, section pages and point lookups interleaved, on
  ``load_connections`` connections (64) for ``load_duration`` seconds (30), ours
  only: errors must be 0 and RSS flat (before -> after) behind the protocol's limits

Both queries name the edition's graph (``GRAPH <edition>``), so the same text
runs everywhere. Ours serves the whole store, twice: as configured (with its
response cache) and with ``--cache 0`` (every answer computed); the peers
(Oxigraph server, rdflib-endpoint) hold only the edition's graph, exported as
N-Quads, so their ratios favour them. wrk shares the machine's cores with the
server it loads.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pyoxigraph as ox

from ..errors import KBError
from ..rdf.iris import Minter
from .serve_servers import (RssSampler, Server, children_cpu_seconds, second_half_growth, loaded_libraries, start_oxigraph, start_rdflib_endpoint, start_rulekb, stop_servers,
                            terminate_as_exit)

PREFIX = "PREFIX rk: <https://w3id.org/rulekb#>\n"
POINT = PREFIX + "SELECT ?text WHERE {{ GRAPH <{edition}> {{ <{rule}> rk:text ?text }} }}"
JOIN = PREFIX + ("SELECT ?source ?source_number ?target_number WHERE {{ GRAPH <{edition}> {{\n"
                 "  ?target rk:parent+ <{section}> ; rk:number ?target_number .\n"
                 "  ?source rk:hasCitation/rk:citationTarget ?target ; rk:number ?source_number .\n}} }}")
SPARQL_JSON = "application/sparql-results+json"
TARGETS = {  # req/s of ours, over the whole store
    "rule page": 1000, "sparql point": 2000, "sparql join": 500,
}
P99_TARGET_MS = 50.0
# "Flat" for a server whose caches are bounded: it grows while they fill (every page of the
# edition rendered once, the response cache full), then stops. Judged on the second half of
# every scenario of at least FLAT_MIN_SECONDS (the mixed load, --load-duration): RSS then grows
# by at most 2 % or 16 MB, whichever is larger. Shorter runs show their growth, unjudged.
RSS_SECOND_HALF_LIMIT = (0.02, 16.0)
FLAT_MIN_SECONDS = 60

LUA = r"""
local paths = {}
local headers = {}
local i = 0
init = function(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
  if args[2] ~= nil and args[2] ~= "" then headers["Accept"] = args[2] end
  i = math.random(#paths)
end
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i], headers)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK-JSON {"requests": %d, "duration_us": %d, "connect": %d, "read": %d, "write": %d, "status": %d, ' ..
    '"timeout": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
"""


@dataclass
class Scenario:
    name: str
    accept: str
    ours: list[str]  # paths on our server
    peer_queries: list[str] = field(default_factory=list)  # the same load for the peers: SPARQL texts
    target: float | None = None
    connections: int | None = None  # wrk connections (None: the run's)
    duration: int | None = None  # seconds (None: the run's)


def _sparql_paths(sparql_path: str, queries: list[str]) -> list[str]:
    return [f"{sparql_path}?query={quote(q, safe='')}" for q in queries]


def latest_edition(store) -> str:
    """The newest complete English edition (ids sort by date)."""
    rows = store.select(PREFIX + 'SELECT ?id WHERE { ?ed rk:editionId ?id FILTER(STRSTARTS(?id, "en/")) '
                        "FILTER NOT EXISTS { ?ed rk:partial true } } ORDER BY DESC(?id) LIMIT 1")
    if not rows:
        raise KBError("no English edition in the store: pass --edition")
    return rows[0]["id"]


def workload(store, edition: str, base: str, rules: int = 200, same_url: bool = False,
             load: tuple[int, int] | None = None) -> tuple[list[Scenario], dict]:
    """The scenarios over one edition: ``rules`` rule numbers spread over it, its sections."""
    graph = Minter(base).edition(edition)
    numbers = [row["number"] for row in store.select(
        PREFIX + "SELECT ?number ?order WHERE { GRAPH ?ed { ?rule rk:number ?number ; a rk:Rule ; rk:order ?order } } "
        "ORDER BY ?order", {"ed": graph})]
    if not numbers:
        raise KBError(f"no rules for edition {edition!r} in the store (see `rulekb editions`)")
    step = max(1, len(numbers) // rules)
    picked = numbers[::step][:rules]
    sections = [row["number"] for row in store.select(
        PREFIX + "SELECT DISTINCT ?number WHERE { GRAPH ?ed { ?target rk:parent+ ?s . ?s rk:number ?number ; "
        "a rk:Section . ?source rk:hasCitation/rk:citationTarget ?target } } ORDER BY ?number", {"ed": graph})]
    if not sections:
        sections = [row["number"] for row in store.select(
            PREFIX + "SELECT ?number WHERE { GRAPH ?ed { ?s a rk:Section ; rk:number ?number } } ORDER BY ?number",
            {"ed": graph})]
    mint = Minter(base)
    rule_paths = [mint.rule(edition, n)[len(base) - 1:] for n in picked]
    point = [POINT.format(edition=graph, rule=mint.rule(edition, n)) for n in picked]
    join = [JOIN.format(edition=graph, section=mint.section(edition, s)) for s in sections]
    scenarios = [
        Scenario("rule page", "text/html", rule_paths, target=TARGETS["rule page"]),
        Scenario("rule turtle", "text/turtle", [p + ".ttl" for p in rule_paths]),
        Scenario("sparql point", SPARQL_JSON, _sparql_paths("/sparql", point), point, TARGETS["sparql point"]),
        Scenario("sparql join", SPARQL_JSON, _sparql_paths("/sparql", join), join, TARGETS["sparql join"]),
    ]
    if load:
        sections_paths = [mint.section(edition, n)[len(base) - 1:] for n in sections]
        mixed = [path for trio in zip(rule_paths, _sparql_paths("/sparql", point),
                                      (sections_paths * (len(rule_paths) // max(1, len(sections_paths)) + 1)))
                 for path in trio]
        scenarios.append(Scenario("load", f"text/html, {SPARQL_JSON};q=0.9", mixed,
                                  connections=load[0], duration=load[1]))
    if same_url:
        scenarios += [
            Scenario("rule page, same URL", "text/html", rule_paths[:1]),
            Scenario("sparql point, same URL", SPARQL_JSON, _sparql_paths("/sparql", point[:1]), point[:1]),
        ]
    return scenarios, {"rules": len(picked), "sections": len(sections)}


def run_wrk(url_root: str, paths: list[str], accept: str, workdir: Path, *, duration: int, threads: int,
            connections: int) -> dict:
    wrk = shutil.which("wrk")
    if wrk is None:
        raise KBError("wrk is not installed (apt-get install wrk)")
    script, listing = workdir / "cycle.lua", workdir / "paths.txt"
    script.write_text(LUA)
    listing.write_text("\n".join(paths) + "\n")
    argv = [wrk, f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--latency", "--timeout", "5s",
            "-s", str(script), url_root, "--", str(listing), accept]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=duration + 60)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("WRK-JSON ")), None)
    if line is None:
        raise KBError(f"wrk failed: {(done.stderr or done.stdout).strip()[-300:]}")
    raw = json.loads(line[len("WRK-JSON "):])
    seconds = raw["duration_us"] / 1e6
    errors = raw["connect"] + raw["read"] + raw["write"] + raw["status"] + raw["timeout"]
    return {
        "requests": raw["requests"], "seconds": round(seconds, 2),
        "req_per_s": round(raw["requests"] / seconds, 1) if seconds else 0.0,
        "p50_ms": raw["p50_us"] / 1000, "p90_ms": raw["p90_us"] / 1000, "p99_ms": raw["p99_us"] / 1000,
        "max_ms": raw["max_us"] / 1000, "errors": errors, "non_2xx_3xx": raw["status"],
        "socket_errors": errors - raw["status"],
        # wrk's kinds: a "timeout" is an answer slower than wrk's --timeout (5 s); "read" a connection
        # the server closed or reset
        "socket_error_kinds": {kind: raw[kind] for kind in ("connect", "read", "write", "timeout")},
    }


def edition_quads(store, graph: str) -> bytes:
    """The edition's graph as N-Quads, its graph name kept (``rulekb export E --rdf nq`` drops it)."""
    quads = store.store().quads_for_pattern(None, None, None, ox.NamedNode(graph))
    return ox.serialize(quads, format=ox.RdfFormat.N_QUADS)


def prime_cache(server: Server, paths: list[str], accept: str, passes: int, connections: int) -> float:
    """Request every path ``passes`` times, each on a new connection (so on any worker process):
    every worker's cache then holds them. Returns the seconds it took."""
    def get(path: str) -> None:
        request = urllib.request.Request(server.root + path, headers={"Accept": accept, "Connection": "close"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                answer.read()
        except OSError:
            pass  # errors show in the measured run

    started = time.perf_counter()
    pool = ThreadPoolExecutor(connections)
    try:
        list(pool.map(get, [p for _ in range(passes) for p in paths]))
    finally:  # on SIGTERM (SystemExit) the queued requests are dropped, not sent first
        pool.shutdown(wait=False, cancel_futures=True)
    return round(time.perf_counter() - started, 1)


def first_answers(server: Server, scenarios: list[Scenario]) -> dict[str, float]:
    """Milliseconds of each scenario's first request on a server just started (cold: nothing read yet)."""
    out = {}
    for scenario in scenarios:
        if not scenario.peer_queries and not _is_ours(server.name):
            continue
        path = (scenario.ours[0] if _is_ours(server.name)
                else _sparql_paths(server.sparql_path, scenario.peer_queries[:1])[0])
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(urllib.request.Request(server.root + path, headers={"Accept": scenario.accept}),
                                        timeout=120) as answer:
                answer.read()
        except OSError:
            continue
        out[scenario.name] = round((time.perf_counter() - started) * 1000, 1)
    return out


def check_answers(servers: list[Server], scenarios: list[Scenario], sample: int = 5) -> dict[str, str]:
    """Every server must give as many rows as ours for the first few queries of each SPARQL scenario:
    a peer answering fast with nothing is not a comparison. Returns what disagreed."""
    problems = {}
    for scenario in scenarios:
        for text in scenario.peer_queries[:sample]:
            counts = {}
            for server in servers:
                url = f"{server.root}{server.sparql_path}?query={quote(text, safe='')}"
                request = urllib.request.Request(url, headers={"Accept": SPARQL_JSON})
                try:
                    with urllib.request.urlopen(request, timeout=60) as answer:
                        counts[server.name] = len(json.load(answer)["results"]["bindings"])
                except (OSError, ValueError, KeyError) as exc:
                    counts[server.name] = f"failed: {exc}"
            if len(set(map(str, counts.values()))) > 1:
                problems[scenario.name] = f"rows differ: {counts}"
    return problems


def _is_ours(name: str) -> bool:
    return name.startswith("rulekb")


@terminate_as_exit()  # a SIGTERM (CI's timeout, kill) still stops the servers: SystemExit, finally
def bench_serve(store, store_location: str, edition: str, base: str, *, duration: int = 20, threads: int = 2,
                connections: int = 16, workers: int = 2, warmup: int = 2, same_url: bool = False,
                peers: bool = True, uncached: bool = True, prime: int = 6, serve_options: tuple[str, ...] = (),
                load: tuple[int, int] | None = (64, 30), only: tuple[str, ...] = (),
                as_user: bool = False, progress=lambda message: None) -> dict:
    """Every scenario on every server, one after the other; ``uncached``: also a
    ``rulekb serve --cache 0`` (the engine's own speed, every answer computed).
    ``prime``: requests of each of a scenario's URLs, on new connections, before
    measuring the cached server (so each worker process has them: steady state); 0: none.

    ``as_user``: ``rulekb serve`` started exactly as a user starts it (no option but the store
    and the port), the peers with their own defaults, started first; ours is loaded from the
    moment it answers (its port opens once warm): no warm-up, no priming, and the rule pages
    cycle over every rule of the edition, so nearly every page is rendered for the first time."""
    if as_user:
        prime, warmup = 0, 0
    scenarios, sizes = workload(store, edition, base, same_url=same_url, load=load,
                                **({"rules": 100_000} if as_user else {}))
    if only:  # a scenario's leftover work (answers wrk gave up on) would load the next one's server
        unknown = set(only) - {s.name for s in scenarios}
        if unknown:
            raise KBError(f"unknown scenario {sorted(unknown)[0]!r}; known: {', '.join(s.name for s in scenarios)}")
        scenarios = [s for s in scenarios if s.name in only]
    load = {"duration": duration, "threads": threads, "connections": connections, "warmup": warmup}
    figures: dict = {"edition": edition, "workers": None if as_user else workers, "as_user": as_user,
                     "load": load, **sizes, "rows": [],
                     "servers": {}, "peers_missing": {}, "priming": {},
                     "load_average": {"cores": os.cpu_count(), "start": round(os.getloadavg()[0], 2)}}
    with tempfile.TemporaryDirectory(prefix="rulekb-bench-serve-") as tmp:
        workdir = Path(tmp)
        nquads = workdir / "edition.nq"
        nquads.write_bytes(edition_quads(store, Minter(base).edition(edition)))
        figures["edition_triples"] = sum(1 for line in nquads.open("rb") if line.strip())
        servers: list[Server] = []
        try:
            def start_peers():
                progress("starting the Oxigraph server and rdflib-endpoint over the edition")
                for start in (start_oxigraph, start_rdflib_endpoint):
                    peer = start(nquads, workdir)
                    if isinstance(peer, str):
                        figures["peers_missing"][start.__name__.removeprefix("start_").replace("_", "-")] = peer
                    else:
                        servers.append(peer)

            if as_user and peers:  # started first: their start-up does not share the cores with our load
                start_peers()
            if as_user:
                progress("starting rulekb serve with no options, as a user does")
                servers.insert(0, start_rulekb("rulekb", store_location, None, workdir))
            else:
                progress(f"starting rulekb serve --workers {workers} {' '.join(serve_options)}")
                options = ["--base-iri", base, *serve_options]
                servers.append(start_rulekb("rulekb", store_location, workers, workdir, options))
            if uncached and as_user:  # as a user starts the engine without its response cache: that option only
                servers.insert(1, start_rulekb("rulekb no-cache", store_location, None, workdir, ["--cache", "0"]))
            elif uncached:
                servers.append(start_rulekb("rulekb no-cache", store_location, workers, workdir,
                                            [*options, "--cache", "0"]))
            if peers and not as_user:
                start_peers()
            for server in servers:
                figures["servers"][server.name] = {"rss_mb_idle": round(server.rss_mb(), 1),
                                                   "argv": [str(a) for a in server.process.args],
                                                   "libraries": sorted(loaded_libraries(server.pid)),
                                                   "first_answer_ms": {} if as_user else first_answers(server, scenarios)}
            if not as_user:  # (as a user: the load starts at once; the answers are compared after)
                progress("checking that every server gives the same answers")
                figures["answers_differ"] = check_answers(servers, scenarios)
            for scenario in scenarios:
                for server in servers:
                    if not _is_ours(server.name) and not scenario.peer_queries:
                        continue
                    paths = (scenario.ours if _is_ours(server.name)
                             else _sparql_paths(server.sparql_path, scenario.peer_queries))
                    progress(f"{scenario.name}: {server.name}")
                    if server.name == "rulekb" and prime:
                        figures["priming"][scenario.name] = prime_cache(server, paths, scenario.accept, prime,
                                                                        connections)
                    if warmup:
                        run_wrk(server.root, paths, scenario.accept, workdir, duration=warmup, threads=threads,
                                connections=scenario.connections or connections)
                    before, cpu_before = server.rss_mb(), server.cpu_seconds()
                    each_before = children_cpu_seconds(server.pid) if _is_ours(server.name) else {}
                    with RssSampler(server) as sampler:
                        row = run_wrk(server.root, paths, scenario.accept, workdir,
                                      duration=scenario.duration or duration, threads=threads,
                                      connections=scenario.connections or connections)
                    # CPU per request of the server's processes: what a request costs, whatever
                    # share of the cores the server got on a busy machine (wrk's own CPU not counted)
                    cpu = server.cpu_seconds() - cpu_before
                    row["cpu_shares"] = _shares(each_before, children_cpu_seconds(server.pid))
                    row.update(scenario=scenario.name, server=server.name, urls=len(paths),
                               rss_mb_before=round(before, 1), rss_mb_after=round(server.rss_mb(), 1),
                               rss_samples=sampler.samples, rss_mb_second_half=second_half_growth(sampler.samples),
                               cpu_ms_per_request=round(cpu * 1000 / row["requests"], 3) if row["requests"] else None)
                    figures["rows"].append(row)
            if as_user:
                figures["answers_differ"] = check_answers(servers, scenarios)
            for server in servers:
                figures["servers"][server.name]["rss_mb_end"] = round(server.rss_mb(), 1)
        finally:
            stop_servers(servers)
    figures["load_average"]["end"] = round(os.getloadavg()[0], 2)
    _judge(figures, scenarios)
    return figures


def _shares(before: dict[int, float], after: dict[int, float]) -> list[float]:
    """Each server process's share of the CPU its server spent (busiest first): a load all on one
    process of two (kept-alive connections that landed there) shows as [1.0, 0.0]."""
    spent = [after[pid] - before[pid] for pid in after if pid in before]
    total = sum(spent)
    return sorted((round(x / total, 2) for x in spent), reverse=True) if len(spent) > 1 and total > 0 else []


def _judge(figures: dict, scenarios: list[Scenario]) -> None:
    """Ratios ours/peer (same scenario, same run) and the targets of each of our servers, met or missed."""
    ours: dict[str, dict[str, dict]] = {}  # server -> scenario -> row
    for row in figures["rows"]:
        if _is_ours(row["server"]):
            ours.setdefault(row["server"], {})[row["scenario"]] = row
    for row in figures["rows"]:
        if _is_ours(row["server"]) or not row["req_per_s"]:
            continue
        row["ratios"] = {name: round(rows[row["scenario"]]["req_per_s"] / row["req_per_s"], 2)
                         for name, rows in ours.items() if row["scenario"] in rows}
        # the peer's CPU per request over ours (1.0: as cheap; 0.5: ours costs twice the CPU)
        row["cpu_ratios"] = {name: round(row["cpu_ms_per_request"] / rows[row["scenario"]]["cpu_ms_per_request"], 2)
                             for name, rows in ours.items() if row["scenario"] in rows
                             and row["cpu_ms_per_request"] and rows[row["scenario"]]["cpu_ms_per_request"]}
    targets = []
    share, slack = RSS_SECOND_HALF_LIMIT
    for name, rows in ours.items():
        for scenario in scenarios:
            row = rows.get(scenario.name)
            if row is None:
                continue
            if scenario.target:
                targets.append({"server": name, "target": f"{scenario.name} >= {scenario.target:,} req/s, no errors",
                                "value": row["req_per_s"],
                                "met": row["req_per_s"] >= scenario.target and not row["errors"]})
            targets.append({"server": name, "target": f"{scenario.name} p99 <= {P99_TARGET_MS:.0f} ms",
                            "value": row["p99_ms"], "met": row["p99_ms"] <= P99_TARGET_MS})
        errors = sum(r["errors"] for r in rows.values())
        targets.append({"server": name, "target": "zero errors", "value": errors, "met": errors == 0})
        long_enough = [r for r in rows.values() if r["seconds"] >= FLAT_MIN_SECONDS * 0.9
                       and r.get("rss_mb_second_half") is not None]
        grown = [f"{r['scenario']} +{r['rss_mb_second_half']:.0f} MB" for r in long_enough
                 if r["rss_mb_second_half"] > max(r["rss_mb_after"] * share, slack)]
        judged = "; ".join(f"{r['scenario']} {r['rss_mb_second_half']:+.0f} MB over its last "
                           f"{r['seconds'] / 2:.0f} s (at {r['rss_mb_after']:.0f} MB)" for r in long_enough)
        targets.append({"server": name, "target": "memory flat once its caches are full (RSS growth over the "
                        f"second half of a load of {FLAT_MIN_SECONDS} s or more, at most "
                        f"{share:.0%} or {slack:.0f} MB)",
                        "value": judged or f"not judged: no scenario ran {FLAT_MIN_SECONDS} s "
                        "(--load-duration 180 gives the caches time to fill)",
                        "met": (not grown) if long_enough else None})
    for scenario, problem in figures.get("answers_differ", {}).items():
        targets.append({"server": "all", "target": f"{scenario}: same answers on every server", "value": problem,
                        "met": False})
    figures["targets"] = targets

"""Units (one process or several, --jobs) and the cache give exactly the findings of one whole-project run."""

from __future__ import annotations

import marshal
import os
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from webmcp_lint import cache as cache_module
from webmcp_lint import units
from webmcp_lint.cli import main
from webmcp_lint.commands import check_run
from webmcp_lint.digests import new_hash
from webmcp_lint.engine import Settings, lint_paths

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
APPS = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())

# A page (main.js, which the prefilter rejects) importing an untrusted and a consequential tool (WM612 across
# files), a factory module whose findings come from its importer's unit, one of them suppressed in the factory
# (matching across units), and an unused suppression (WM003).
PROJECT = {
    "reader.js": ('document.modelContext?.registerTool({\n  name: "read_reviews",\n'
                  '  description: "Returns the reviews other shoppers wrote about a product.",\n'
                  '  inputSchema: { type: "object", properties: {} },\n  execute() { return 1; },\n'
                  "  annotations: { readOnlyHint: true, untrustedContentHint: true },\n});\n"),
    "booking.js": ('document.modelContext?.registerTool({\n  name: "book_flight",\n'
                   '  description: "Book a flight for the user.",\n  inputSchema: { type: "object", properties: {} },\n'
                   "  execute() { return 1; },\n  annotations: { consequentialHint: true },\n});\n"),
    "main.js": 'import "./reader.js";\nimport "./booking.js";\n',
    "factory.js": ("export function createTool() {\n  return {\n    // webmcp-lint-disable-next-line WM201\n"
                   '    name: "Lookup Order",\n    description: "",\n'
                   '    inputSchema: { type: "object", properties: {} },\n    execute() { return 1; },\n  };\n}\n'),
    "app.js": 'import { createTool } from "./factory.js";\ndocument.modelContext?.registerTool(createTool());\n',
    "extra.js": ("// webmcp-lint-disable-next-line WM401\ndocument.modelContext?.registerTool({ name: \"noop\", "
                 'description: "Does nothing at all, for tests.", execute() { return 1; } });\n'),
}


@pytest.fixture(autouse=True)
def pool_for_any_size(monkeypatch):
    """Small projects use the process pool too, so --jobs 2 really crosses process boundaries."""
    monkeypatch.setattr(units, "MIN_UNITS_FOR_POOL", 0)


def check_json(where: Path, *options: str, report: Path) -> str:
    result = CliRunner().invoke(main, ["check", ".", "--format", "json", "--exit-zero", "-o", str(report), *options])
    assert result.exit_code == 0, result.output
    return report.read_text(encoding="utf-8")


def whole_project_json(where: Path, monkeypatch, report: Path) -> str:
    """The JSON report of ``check`` when every file is analysed in one project (engine.lint_sources, what the
    ``tools`` command and library callers get), which the units must reproduce."""
    lint_in_units = check_run.lint_paths
    with monkeypatch.context() as patched:
        patched.setattr(check_run, "lint_paths", lambda paths, settings, **unit_options: lint_in_units(paths, settings))
        return check_json(where, report=report)


def outputs(where: Path, tmp_path: Path, monkeypatch) -> dict[str, str]:
    """The JSON report of the whole-project run, of units in one process and in two, and of cold and warm cached
    runs."""
    monkeypatch.chdir(where)
    cache = tmp_path / "cache"
    report = tmp_path / "report.json"
    return {
        "whole project": whole_project_json(where, monkeypatch, report),
        "one-process units": check_json(where, "--jobs", "1", "--no-cache", report=report),
        "parallel": check_json(where, "--jobs", "2", "--no-cache", report=report),
        "cold": check_json(where, "--jobs", "2", "--cache-dir", str(cache), report=report),
        "warm": check_json(where, "--jobs", "1", "--cache-dir", str(cache), report=report),
    }


def write_project(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def codes_at(report: str) -> list[tuple[str, str, int]]:
    import json

    return [(item["code"], item["path"], item["line"]) for item in json.loads(report)["diagnostics"]]


@pytest.mark.parametrize("app", APPS)
def test_every_way_of_running_gives_the_same_report_on_fixture_apps(app, tmp_path, monkeypatch):
    found = outputs(FIXTURES / app, tmp_path, monkeypatch)
    assert found["one-process units"] == found["whole project"]
    assert found["parallel"] == found["whole project"]
    assert found["cold"] == found["whole project"]
    assert found["warm"] == found["whole project"]


def generated_corpus(where: Path, files: int) -> Path:
    """The benchmark's generated WebMCP modules (bench/generate.py), ``files`` of them."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from generate import generate
    finally:
        sys.path.remove(str(ROOT / "bench"))
    generate(where, files=files)
    return where


def test_every_way_of_running_gives_the_same_report_on_a_generated_corpus(tmp_path, monkeypatch):
    corpus = generated_corpus(tmp_path / "corpus", files=80)
    found = outputs(corpus, tmp_path, monkeypatch)
    assert len(codes_at(found["whole project"])) > 100
    assert found["one-process units"] == found["whole project"]
    assert found["parallel"] == found["whole project"]
    assert found["cold"] == found["whole project"]
    assert found["warm"] == found["whole project"]


def test_three_processes_and_a_worker_that_dies_give_the_same_report(tmp_path, monkeypatch):
    """The units a forked worker took are linted here when it dies before sending them: slower, same report."""
    monkeypatch.chdir(FIXTURES)
    report = tmp_path / "report.json"
    expected = check_json(FIXTURES, "--jobs", "1", "--no-cache", report=report)
    assert check_json(FIXTURES, "--jobs", "3", "--no-cache", report=report) == expected
    parent = os.getpid()
    real = units._lint_unit_at

    def dies_in_a_worker(position):
        if os.getpid() != parent:
            os._exit(3)
        return real(position)

    monkeypatch.setattr(units, "_lint_unit_at", dies_in_a_worker)
    assert check_json(FIXTURES, "--jobs", "2", "--no-cache", report=report) == expected


def test_the_entries_a_worker_sent_before_it_died_are_used_and_its_other_units_linted_here(tmp_path, monkeypatch):
    """A worker sends each entry as it is computed: those that arrived count, the unit it died on is linted here."""
    corpus = generated_corpus(tmp_path / "corpus", files=40)
    monkeypatch.chdir(corpus)
    report = tmp_path / "report.json"
    expected = check_json(corpus, "--jobs", "1", "--no-cache", report=report)
    died = tmp_path / "the worker died"
    parent = os.getpid()
    real = units._lint_unit_at
    linted_there: list[int] = []  # in the worker's memory
    linted_here: list[int] = []

    def dies_on_its_third_unit(position):
        if os.getpid() == parent:
            linted_here.append(position)
        else:
            linted_there.append(position)
            if len(linted_there) == 3:
                died.touch()
                os._exit(3)
        return real(position)

    monkeypatch.setattr(units, "_lint_unit_at", dies_on_its_third_unit)
    assert check_json(corpus, "--jobs", "2", "--no-cache", report=report) == expected
    assert died.exists()
    assert len(linted_here) == len(set(linted_here)) == 40 - 2


@pytest.fixture
def forked(monkeypatch) -> list[int]:
    """The process ids of the workers this process forks (filled as it forks them)."""
    started: list[int] = []
    real_fork = os.fork

    def recorded_fork():
        pid = real_fork()
        if pid:
            started.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recorded_fork)
    return started


def test_every_worker_is_waited_for_by_the_end_of_the_run(tmp_path, monkeypatch, forked):
    """Workers are reaped after the merge (their exit frees their memory meanwhile), never left as zombies."""
    monkeypatch.chdir(FIXTURES)
    check_json(FIXTURES, "--jobs", "3", "--no-cache", report=tmp_path / "report.json")
    assert len(forked) == 2
    for pid in forked:
        with pytest.raises(ChildProcessError):  # already waited for: no longer this process's child
            os.waitpid(pid, os.WNOHANG)


def test_never_more_processes_than_units(tmp_path, monkeypatch, forked):
    monkeypatch.chdir(write_project(tmp_path / "app", PROJECT))
    check_json(tmp_path, "--jobs", "200", "--no-cache", report=tmp_path / "report.json")
    units_linted = 5  # the project's files but main.js, which the prefilter rejects
    assert len(forked) == units_linted - 1  # and this process


def test_a_failure_in_the_main_process_stops_its_workers(tmp_path, monkeypatch):
    """The run ends with the error at once: a worker's remaining units are of no use, so it is not waited for."""
    monkeypatch.chdir(FIXTURES)
    finished = tmp_path / "a worker finished a unit"
    parent = os.getpid()

    def fails_here_and_is_slow_elsewhere(position):
        if os.getpid() == parent:
            raise RuntimeError("boom")
        time.sleep(5)
        finished.touch()
        return {}

    monkeypatch.setattr(units, "_lint_unit_at", fails_here_and_is_slow_elsewhere)
    result = CliRunner().invoke(main, ["check", ".", "--jobs", "2", "--no-cache", "--format", "json"])
    assert result.exit_code == 2 and "RuntimeError: boom" in result.output
    assert not finished.exists()


def test_cross_file_findings_and_suppressions_survive_units(tmp_path, monkeypatch):
    found = outputs(write_project(tmp_path / "app", PROJECT), tmp_path, monkeypatch)
    assert {"whole project"} | {name for name, report in found.items() if report == found["whole project"]} == set(found)
    flagged = codes_at(found["whole project"])
    assert ("WM612", "reader.js", 2) in flagged  # the page is main.js, which no unit holds
    assert ("WM202", "factory.js", 4) in flagged  # reported by app.js's unit, located in the factory
    assert not [entry for entry in flagged if entry[0] == "WM201"]  # suppressed by the factory's own comment
    assert [entry for entry in flagged if entry[0] == "WM003"] == [("WM003", "extra.js", 1)]


def test_a_warm_run_lints_nothing_again(tmp_path, monkeypatch):
    root = write_project(tmp_path / "app", PROJECT)
    monkeypatch.chdir(root)
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    cold = check_json(root, "--jobs", "1", "--cache-dir", str(cache), report=report)

    def must_not_run(*arguments):
        raise AssertionError("a valid cache entry was linted again")

    monkeypatch.setattr(units, "lint_unit", must_not_run)
    monkeypatch.setattr(units, "_page_pass", must_not_run)
    assert check_json(root, "--jobs", "1", "--cache-dir", str(cache), report=report) == cold


def test_a_first_run_reads_no_cache_file_and_the_next_run_reads_them(tmp_path, monkeypatch):
    """Without a folder for its settings, a run has nothing to look up: it reads no shard (nor works out keys first)."""
    root = write_project(tmp_path / "app", PROJECT)
    monkeypatch.chdir(root)
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    read = []
    real = cache_module.read_slots
    monkeypatch.setattr(cache_module, "read_slots", lambda path: read.append(path) or real(path))
    cold = check_json(root, "--jobs", "2", "--cache-dir", str(cache), report=report)
    assert not read
    assert check_json(root, "--jobs", "2", "--cache-dir", str(cache), report=report) == cold
    assert sorted(set(read)) == cache_files(cache)


def test_editing_a_file_or_the_factory_it_imports_invalidates_its_entry(tmp_path, monkeypatch):
    root = write_project(tmp_path / "app", PROJECT)
    monkeypatch.chdir(root)
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    check_json(root, "--cache-dir", str(cache), report=report)

    (root / "extra.js").write_text(PROJECT["extra.js"].replace("// webmcp-lint-disable-next-line WM401\n", ""))
    edited = codes_at(check_json(root, "--cache-dir", str(cache), report=report))
    assert not [entry for entry in edited if entry[0] == "WM003"]

    factory = PROJECT["factory.js"].replace('description: ""', 'description: "Looks an order up by its number."')
    (root / "factory.js").write_text(factory)
    report_text = check_json(root, "--cache-dir", str(cache), report=report)
    assert not [entry for entry in codes_at(report_text) if entry[0] == "WM202"]
    assert report_text == check_json(root, "--no-cache", report=report)


def cache_files(cache: Path) -> list[Path]:
    """The shards a run over one project with one set of settings wrote (one folder of them)."""
    written = sorted(cache.glob("*/*/*.cache"))
    assert written and len({path.parent for path in written}) == 1, written
    return written


def stored_slots(cache: Path) -> dict:
    """Every entry the shards hold, by slot, as (key, entry) once its digest is checked (an entry's marshal bytes
    may differ from one run to the next: marshal shares an object only while something else holds it)."""
    slots = {}
    for path in cache_files(cache):
        slots.update((slot, opened(held)) for slot, held in cache_module.read_slots(path).items())
    return slots


def opened(held: tuple) -> tuple:
    key, entry_digest, entry_bytes = held
    assert new_hash(entry_bytes).digest() == entry_digest
    return key, marshal.loads(entry_bytes)


def write_shard(path: Path, slots: dict) -> None:
    """A sound shard holding ``slots`` of (key, entry), each entry sealed as a run seals it."""
    path.write_bytes(cache_module._shard_bytes(
        {slot: (key, *cache_module.sealed(entry)) for slot, (key, entry) in slots.items()}))


def test_a_corrupt_cache_file_is_linted_again(tmp_path, monkeypatch):
    root = write_project(tmp_path / "app", PROJECT)
    monkeypatch.chdir(root)
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    cold = check_json(root, "--cache-dir", str(cache), report=report)
    stored = {path: path.read_bytes() for path in cache_files(cache)}
    slots = stored_slots(cache)
    assert slots
    damages = (lambda data: b"", lambda data: data[:len(data) // 2], lambda data: data[:-1] + bytes([data[-1] ^ 1]),
               lambda data: b"{not marshal", lambda data: data.replace(cache_module.FILE_HEADER, b"webmcp-lint cache 0\n"))
    for damage in damages:
        for path, data in stored.items():
            path.write_bytes(damage(data))
        assert check_json(root, "--cache-dir", str(cache), report=report) == cold
        assert stored_slots(cache) == slots  # written again, whole


def test_an_entry_whose_bytes_no_longer_match_their_digest_is_linted_again(tmp_path, monkeypatch):
    """A changed letter in a finding's message still unmarshals: only the entry's digest tells it."""
    root = write_project(tmp_path / "app", PROJECT)
    monkeypatch.chdir(root)
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    cold = check_json(root, "--cache-dir", str(cache), report=report)
    changed = 0
    for path in cache_files(cache):
        slots = cache_module.read_slots(path)
        for slot, (key, entry_digest, entry_view) in slots.items():
            entry_bytes = bytes(entry_view)
            if b"signal" in entry_bytes:
                slots[slot] = (key, entry_digest, entry_bytes.replace(b"signal", b"signaL"))
                changed += 1
        path.write_bytes(cache_module._shard_bytes(slots))  # a sound shard: its index's digest holds
    assert changed
    assert check_json(root, "--cache-dir", str(cache), report=report) == cold


def test_any_byte_of_a_shard_changed_is_a_miss_or_the_same_entry_never_an_error(tmp_path):
    """Its index is read only once its digest holds, each entry once its own does: no changed byte makes marshal
    read a structure this version did not write (a changed size could ask it for gigabytes)."""
    cache = cache_module.Cache(tmp_path / "cache", "settings")
    entries = {str(tmp_path / f"m{number}.js"): {"looked_at": {}, "diagnostics": [number]} for number in range(3)}
    for slot, entry in entries.items():
        cache.store(slot, "key", cache_module.sealed(entry))
    cache.save()
    for path in cache_files(tmp_path / "cache"):
        sound = path.read_bytes()
        for position in range(len(sound)):
            for changed_to in {sound[position] ^ 1, sound[position] ^ 0x80, 0x28, 0xff}:
                path.write_bytes(sound[:position] + bytes([changed_to]) + sound[position + 1:])
                reader = cache_module.Cache(tmp_path / "cache", "settings")
                for slot, entry in entries.items():
                    assert reader.load(slot, "key") in (None, entry)
        path.write_bytes(sound)


def test_an_index_with_a_sound_digest_but_foreign_slots_or_places_yields_misses(tmp_path):
    """What this version never writes, even under a digest that holds: a slot that is no path (save would stat
    it) and entries placed past the file's end or cut short."""
    cache = cache_module.Cache(tmp_path / "cache", "settings")
    cache.store("/first.js", "key", cache_module.sealed({}))
    cache.save()  # makes the folder
    number = cache_module.shard_number("/first.js")
    past_end, cut = [slot for slot in (f"/m{n}.js" for n in range(1000)) if cache_module.shard_number(slot) == number][:2]
    entry_digest, entry_bytes = cache_module.sealed({"looked_at": {}})
    index = marshal.dumps({1.5: ("key", entry_digest, 0, len(entry_bytes)),
                           past_end: ("key", entry_digest, 0, 10 ** 12), cut: ("key", entry_digest, 0, 2)})
    index_size = len(index).to_bytes(cache_module.INDEX_SIZE_BYTES, "little")
    cache.shard_path(number).write_bytes(
        b"".join((cache_module.FILE_HEADER, new_hash(index).digest(), index_size, index, entry_bytes)))
    assert set(cache_module.read_slots(cache.shard_path(number))) == {past_end, cut}
    reader = cache_module.Cache(tmp_path / "cache", "settings")
    assert reader.load(past_end, "key") == {"looked_at": {}}  # the place ends where the file does
    assert reader.load(cut, "key") is None
    reader.save()  # the float slot is gone: nothing stats it


def test_malformed_entries_in_a_sound_cache_file_are_linted_again(tmp_path, monkeypatch):
    """A file that reads (the entries' digests hold) but whose entries are not what this version writes: each a
    miss."""
    root = write_project(tmp_path / "app", PROJECT)
    monkeypatch.chdir(root)
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    cold = check_json(root, "--cache-dir", str(cache), report=report)
    malformed = [[], 3, (None, {}), {"looked_at": 3}, {"looked_at": {}, "diagnostics": [["x"]]},
                 {"looked_at": {}, "diagnostics": [], "notices": [], "positions": [["a.js", "a.js", [1, 2], [1], [1]]]}]
    number = 0
    for path in cache_files(cache):
        slots = {}
        for slot, (key, *_) in sorted(cache_module.read_slots(path).items()):
            slots[slot] = (key, malformed[number % len(malformed)])
            number += 1
        write_shard(path, slots)
    assert number == len(PROJECT)
    assert check_json(root, "--cache-dir", str(cache), report=report) == cold
    assert check_json(root, "--cache-dir", str(cache), report=report) == cold


def test_one_entry_per_file_replaced_when_it_changes(tmp_path, monkeypatch):
    root = write_project(tmp_path / "app", PROJECT)
    monkeypatch.chdir(root)
    cache, report = tmp_path / "cache", tmp_path / "report.json"

    def slots() -> list[str]:
        return sorted(Path(slot).name for slot in stored_slots(cache))

    check_json(root, "--cache-dir", str(cache), report=report)
    first = slots()
    assert first == sorted(["", "app.js", "booking.js", "extra.js", "factory.js", "reader.js"])  # "": the pages
    for version in range(3):
        (root / "extra.js").write_text(PROJECT["extra.js"] + f"// version {version}\n")
        check_json(root, "--cache-dir", str(cache), report=report)
    assert slots() == first


def test_entries_of_deleted_files_go_when_a_run_next_reads_their_shard(tmp_path):
    files = [tmp_path / f"module{number}.js" for number in range(cache_module.SHARDS * 4)]
    by_shard: dict[int, list[Path]] = {}
    for path in files:
        path.write_text("// a module\n")
        by_shard.setdefault(cache_module.shard_number(str(path)), []).append(path)
    kept, deleted = next(group for group in by_shard.values() if len(group) >= 2)[:2]
    first = cache_module.Cache(tmp_path / "cache", "settings")
    for path in (kept, deleted):
        assert first.load(str(path), "key") is None
        first.store(str(path), "key", cache_module.sealed({"entry": path.name}))
    first.save()
    shard = first.shard_path(cache_module.shard_number(str(kept)))
    assert set(cache_module.read_slots(shard)) == {str(kept), str(deleted)}

    deleted.unlink()
    later = cache_module.Cache(tmp_path / "cache", "settings")  # a run over the kept file alone, all cached
    assert later.load(str(kept), "key") == {"entry": kept.name}
    later.save()
    assert set(cache_module.read_slots(shard)) == {str(kept)}


def test_a_warm_run_does_not_write_and_a_partial_run_keeps_the_other_files_entries(tmp_path, monkeypatch):
    root = write_project(tmp_path / "app", PROJECT)
    monkeypatch.chdir(root)
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    cold = check_json(root, "--cache-dir", str(cache), report=report)
    def identities() -> dict[Path, tuple[int, int]]:
        return {path: (path.stat().st_ino, path.stat().st_mtime_ns) for path in cache_files(cache)}

    written = identities()
    assert check_json(root, "--cache-dir", str(cache), report=report) == cold
    assert identities() == written

    (root / "extra.js").write_text(PROJECT["extra.js"] + "// edited\n")
    result = CliRunner().invoke(main, ["check", "extra.js", "--format", "json", "--exit-zero", "-o", str(report),
                                       "--cache-dir", str(cache)])
    assert result.exit_code == 0, result.output
    assert len(stored_slots(cache)) == len(PROJECT)  # the units' entries and the pages'

    expected = check_json(root, "--no-cache", report=report)
    real_lint_unit = units.lint_unit

    def only_the_edited_file(run, source):
        assert source.path.name == "extra.js", f"{source.path} was linted again"
        return real_lint_unit(run, source)

    monkeypatch.setattr(units, "lint_unit", only_the_edited_file)
    assert check_json(root, "--cache-dir", str(cache), report=report) == expected


def test_the_cache_is_tagged_and_no_cache_writes_nothing(tmp_path, monkeypatch):
    root = write_project(tmp_path / "app", PROJECT)
    monkeypatch.chdir(root)
    report = tmp_path / "report.json"
    check_json(root, "--no-cache", report=report)
    assert not (root / ".webmcp_lint_cache").exists()
    check_json(root, report=report)
    assert (root / ".webmcp_lint_cache" / "CACHEDIR.TAG").read_text().startswith(
        "Signature: 8a477f597d28d172789f06886806bc55")
    assert (root / ".webmcp_lint_cache" / ".gitignore").read_text() == "*\n"
    assert cache_files(root / ".webmcp_lint_cache")


def test_the_text_report_does_not_mention_the_cache_it_created(tmp_path, monkeypatch):
    root = write_project(tmp_path / "app", PROJECT)
    monkeypatch.chdir(root)
    runs = [CliRunner().invoke(main, ["check", ".", "--exit-zero", "--no-color"]).output for _ in range(2)]
    assert (root / ".webmcp_lint_cache").is_dir()
    assert runs[0] == runs[1] and "director" not in runs[1]


TYPESCRIPT_PROJECT = {
    "package.json": '{ "name": "app", "devDependencies": { "typescript": "^5.9.0", "webmcp-types": "^0.1.9" } }',
    "tsconfig.json": '{\n  "compilerOptions": {\n    "strict": true,\n    "types": ["vite/client"]\n  }\n}',
    "main.ts": ('if (document.modelContext) {\n  await document.modelContext.registerTool({ name: "get_time", description: '
                '"Returns the current time in the user\'s zone.", execute: () => new Date().toISOString() });\n}\n'),
    "env.d.ts": "export {};\n",
}


def test_a_finding_that_reads_every_file_is_invalidated_by_any_of_them(tmp_path, monkeypatch):
    """WM105 looks for a `/// <reference types>` line in every source: editing one (without WebMCP code) counts."""
    root = write_project(tmp_path / "app", TYPESCRIPT_PROJECT)
    monkeypatch.chdir(root)
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    assert ("WM105", "tsconfig.json", 4) in codes_at(check_json(root, "--cache-dir", str(cache), report=report))
    (root / "env.d.ts").write_text('/// <reference types="webmcp-types" />\n')
    assert not [entry for entry in codes_at(check_json(root, "--cache-dir", str(cache), report=report))
                if entry[0] == "WM105"]


def test_the_page_pass_runs_only_when_a_file_imports_one_with_tools(tmp_path, monkeypatch):
    calls = []
    real = units._page_pass
    monkeypatch.setattr(units, "_page_pass", lambda run: calls.append(run) or real(run))
    separate = {name: PROJECT[name] for name in ("reader.js", "booking.js", "extra.js")}
    found = outputs(write_project(tmp_path / "separate", separate), write_project(tmp_path / "one", {}), monkeypatch)
    assert not calls and len(set(found.values())) == 1
    found = outputs(write_project(tmp_path / "together", PROJECT), write_project(tmp_path / "two", {}), monkeypatch)
    assert calls and len(set(found.values())) == 1


def test_cache_entries_belong_to_one_build_of_the_linter(tmp_path, monkeypatch):
    """An edited development install must not answer from entries its old code wrote."""
    from webmcp_lint import cache as cache_module

    first = cache_module.build_fingerprint()
    assert first.startswith(cache_module.__version__ + "-")
    module_file = Path(cache_module.__file__)
    status = module_file.stat()
    try:
        os.utime(module_file, ns=(status.st_atime_ns, status.st_mtime_ns + 1_000_000_000))
        cache_module.build_fingerprint.cache_clear()
        assert cache_module.build_fingerprint() != first
    finally:
        os.utime(module_file, ns=(status.st_atime_ns, status.st_mtime_ns))
        cache_module.build_fingerprint.cache_clear()
    assert cache_module.build_fingerprint() == first


def test_with_the_collector_off_each_unit_s_cycles_are_collected_before_the_next(tmp_path, monkeypatch):
    """The CLI keeps the cycle collector off; the cycles a unit leaves (memos kept on their owners, its tree
    among them) are collected when it ends, so the next unit reuses that memory and a run keeps a bounded heap."""
    import gc
    from types import SimpleNamespace

    from webmcp_lint.engine import Settings, lint_paths

    corpus = generated_corpus(tmp_path / "corpus", files=12)

    def cyclic_garbage_left(cache_dir: Path) -> int:
        gc.collect()
        gc.disable()
        try:
            lint_paths([str(corpus)], Settings(), jobs=1, cache_dir=cache_dir)
            return gc.collect()
        finally:
            gc.enable()

    with monkeypatch.context() as patched:  # as if the collector were on: units leave the collection to it
        patched.setattr(units, "gc", SimpleNamespace(isenabled=lambda: True, collect=gc.collect))
        without_collection = cyclic_garbage_left(tmp_path / "cache-without")
    collected_per_unit = cyclic_garbage_left(tmp_path / "cache-with")
    assert without_collection > 12 * 100  # each unit leaves cycles behind
    assert collected_per_unit < without_collection / 10  # collected as the run goes


def test_with_the_collector_off_what_precedes_the_units_is_frozen_for_the_run_only(tmp_path, monkeypatch):
    """The objects made before the units (modules, settings, sources) are frozen while units run, so the per-unit
    collections skip them, and unfrozen after, so a library caller's later collections still see them."""
    import gc

    from webmcp_lint.engine import Settings, lint_paths

    corpus = generated_corpus(tmp_path / "corpus", files=3)
    frozen_while_linting = []
    lint_one = units.lint_unit
    monkeypatch.setattr(units, "lint_unit", lambda run, source: (frozen_while_linting.append(gc.get_freeze_count()),
                                                                 lint_one(run, source))[1])
    gc.disable()
    try:
        lint_paths([str(corpus)], Settings(), jobs=1, cache_dir=tmp_path / "cache")
        frozen_after = gc.get_freeze_count()
    finally:
        gc.enable()
    assert len(frozen_while_linting) == 3 and min(frozen_while_linting) > 1000
    assert frozen_after == 0


SPREAD_PROJECT = {
    "tools/defs.js": ('export const searchTool = { name: "search", description: "Finds records for the user.",\n'
                      '  inputSchema: { type: "object", properties: {} },\n'
                      '  execute: async () => { const r = await fetch("https://api.example.com/x"); return r.json(); } };\n'),
    "main.js": 'import { searchTool } from "./tools/defs.js";\ndocument.modelContext?.registerTool(searchTool);\n',
    "page.html": ('<!doctype html><p>é</p>\n<script type="module">\nimport { searchTool } from "./tools/defs.js";\n'
                  'document.modelContext?.registerTool({ ...searchTool, name: "inline" });\n</script>\n'),
}


def test_a_tool_whose_execute_comes_from_a_module_only_imported_is_checked_in_every_mode(tmp_path, monkeypatch):
    """page.html's tool takes its execute from defs.js, which no tool of page.html's own unit lives in."""
    found = outputs(write_project(tmp_path / "app", SPREAD_PROJECT), tmp_path, monkeypatch)
    assert ("WM605", "page.html", 4) in codes_at(found["whole project"])
    assert found["one-process units"] == found["whole project"]
    assert found["parallel"] == found["whole project"]
    assert found["cold"] == found["whole project"]
    assert found["warm"] == found["whole project"]


def test_an_entry_rejected_for_a_malformed_position_leaves_no_position_behind(tmp_path, monkeypatch):
    """The main process works out some findings itself (WM003): a rejected entry's other positions must not
    place them."""
    source = ("// webmcp-lint-disable-next-line WM999\n"
              "navigator.modelContext.registerTool({ name: 'a', description: 'Finds things.', execute: () => 1 });\n")
    root = write_project(tmp_path / "app", {"dir.js": source})
    monkeypatch.chdir(root)
    cache, report = tmp_path / "cache", tmp_path / "report.json"
    options = ("--cache-dir", str(cache), "-j1", "--select", "WM003,WM101")
    cold = check_json(root, *options, report=report)
    assert '"WM003"' in cold
    offsets = list(range(len(source) + 1))
    for path in cache_files(cache):
        slots = {slot: opened(held) for slot, held in cache_module.read_slots(path).items()}
        for slot, (key, entry) in slots.items():
            if slot.endswith("dir.js"):
                entry["positions"] = [[slot, "dir.js", offsets, [42] * len(offsets), [9] * len(offsets)],
                                      ["/nonexistent.js", "x.js", [1, 2], [1], [1]]]
        write_shard(path, slots)
    assert check_json(root, *options, report=report) == cold


@pytest.mark.parametrize("options", [["-j2", "--no-cache"], ["-j1", "--cache-dir", "cache"]])
def test_two_named_files_that_share_an_absolute_path_lint_as_before(tmp_path, monkeypatch, options):
    """``d/link/../a.js`` and ``d/a.js`` are one absolute path (not one file): the unit runner's merge must not
    fail on them (it raised a KeyError for one release)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "other" / "deep").mkdir(parents=True)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "link").symlink_to(tmp_path / "other" / "deep")
    tool = ('document.modelContext.registerTool({ name: "get_x", description: "Gets x.", '
            'inputSchema: { type: "object", properties: {} }, async execute() { return 1; } });\n')
    (tmp_path / "d" / "a.js").write_text(tool)
    (tmp_path / "other" / "a.js").write_text(tool.replace("get_x", "get_y"))
    result = CliRunner().invoke(main, ["check", "d/link/../a.js", "d/a.js", "--format", "json", *options])
    assert result.exit_code == 1 and "internal error" not in result.output, result.output
    assert '"files_checked": 2' in result.output


def test_a_check_in_one_process_without_a_cache_lints_unit_by_unit(tmp_path, monkeypatch):
    """``check -j1 --no-cache`` (also a check on a one-core machine with --no-cache) drops each file's trees and
    tool model once its rules ran, as every other check does: one whole-project analysis keeps them all to the
    end (peak RSS 115 MB against 26 MB on the 200-file benchmark, growing with the project)."""
    monkeypatch.chdir(write_project(tmp_path / "app", PROJECT))
    lint_units = units.lint_units
    calls = []

    def recorded(sources, settings, result, jobs, cache_dir):
        calls.append((jobs, cache_dir))
        return lint_units(sources, settings, result, jobs, cache_dir)

    monkeypatch.setattr(units, "lint_units", recorded)
    check_json(tmp_path, "--jobs", "1", "--no-cache", report=tmp_path / "report.json")
    assert calls == [(1, None)]


def test_lint_paths_keeps_the_tool_model_unless_told_not_to(tmp_path):
    """Library callers and the ``tools`` command read the model; a check only needs the findings."""
    root = write_project(tmp_path / "app", PROJECT)
    kept = lint_paths([str(root)], Settings())
    dropped = lint_paths([str(root)], Settings(), keep_models=False)
    assert {tool.name for tool in kept.project.tools} == {"read_reviews", "book_flight", "Lookup Order", "noop"}
    assert list(dropped.project.tools) == []
    assert [diagnostic.sort_key() for diagnostic in dropped.diagnostics] == \
        [diagnostic.sort_key() for diagnostic in kept.diagnostics]


IMPORTED_WITH_SUPPRESSIONS = {
    "factory.js": ('export const tool = {\n  name: "lookup_order",\n  description: "Looks up an order by its number.",\n'
                   "  handler() {}, // webmcp-lint-disable-line WM206 -- kept for the old API\n"
                   "  // webmcp-lint-disable-next-line WM201\n"
                   "  execute() { return 1; },\n  annotations: { readOnlyHint: true },\n};\n"),
    "whole.js": ("/* webmcp-lint-disable WM206 */\n"
                 'export const other = { name: "other_tool", description: "Does the other thing for users.",'
                 " run() {}, execute() { return 1; } };\n"),
    "main.js": ('import { tool } from "./factory.js";\nimport { other } from "./whole.js";\n'
                "await document.modelContext?.registerTool(tool);\nawait document.modelContext?.registerTool(other);\n"),
}


@pytest.mark.parametrize("options", [("--jobs", "1", "--no-cache"), ("--jobs", "2", "--no-cache"), ("--cache-dir", "c")])
def test_suppressions_in_an_imported_file_the_run_does_not_lint_still_apply(tmp_path, monkeypatch, options):
    """A pre-commit run passes only the staged importer: the comments in the module it imports still hold, and
    the ones no finding of this run needs are not called unused (an importer left out of the run may need them)."""
    monkeypatch.chdir(write_project(tmp_path / "app", IMPORTED_WITH_SUPPRESSIONS))
    report = tmp_path / "report.json"

    def found(path: str) -> list[tuple[str, str, int]]:
        result = CliRunner().invoke(main, ["check", path, "--format", "json", "--exit-zero", "-o", str(report), *options])
        assert result.exit_code == 0, result.output
        return codes_at(report.read_text(encoding="utf-8"))

    for _ in range(2):  # the second cached run reads what the first stored
        assert found("main.js") == []  # the WM201 comment, needed by nothing, is not called unused either
    assert found(".") == [("WM003", "factory.js", 5)]  # every file linted: that one is reported
    assert found("factory.js") == [("WM003", "factory.js", 4), ("WM003", "factory.js", 5)]  # nothing here needs them

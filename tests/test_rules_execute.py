"""WM401..WM409: what each execute rule flags, what it must not flag (RULES.md), and where it points."""

from __future__ import annotations

import pytest
from support import findings, flagged_text, lint_project

from webmcp_lint.diagnostics import Diagnostic


def tool(execute: str, schema: str = '{ type: "object", properties: {} }', before: str = "") -> str:
    return f"""{before}
if ("modelContext" in document) {{
  await document.modelContext.registerTool({{
    name: "probe",
    description: "A tool for tests.",
    inputSchema: {schema},
    {execute},
  }});
}}
"""


def apply_fix(code: str, diagnostic: Diagnostic) -> str:
    data = code.encode("utf-8")
    for edit in sorted(diagnostic.fix.edits, key=lambda edit: edit.start, reverse=True):
        data = data[:edit.start] + edit.text.encode("utf-8") + data[edit.end:]
    return data.decode("utf-8")


# ----------------------------------------------------------------------------- WM401


@pytest.mark.parametrize(("execute", "flagged"), [
    ('execute({ id }) { if (!id) { throw new Error("Pass an id."); } return { id }; }',
     'throw new Error("Pass an id.");'),
    ('execute(input, { signal }) { return fetch("/a", { signal }).then((r) => { if (!r.ok) throw new Error("bad"); '
     'return r.json(); }); }', 'throw new Error("bad");'),
    ('async execute(input, { signal }) { return Promise.reject(new Error("no")); }', 'Promise.reject(new Error("no"))'),
    ('execute(input, { signal }) { return fetch("/a", { signal }).then((r) => r.ok ? r.json() : '
     'Promise.reject(new Error("bad"))); }', 'Promise.reject(new Error("bad"))'),
    ('execute(input, { signal }) { return new Promise((resolve, reject) => { reject(new Error("x")); }); }',
     'reject(new Error("x"))'),
    ('execute({ items }) { items.forEach((item) => { if (!item) throw new TypeError("empty"); }); return {}; }',
     'throw new TypeError("empty");'),
    ('execute() { function fail() { throw new Error("x"); } fail(); return {}; }', 'throw new Error("x");'),
    ('execute(input, { signal }) { try { work(); } catch (err) { throw err; } }', "throw err;"),
    ("async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
     "if (signal.aborted) return { cancelled: true }; throw new Error('failed'); } }", "throw new Error('failed');"),
    ("async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
     "signal.throwIfAborted(); throw new Error('failed'); } }", "throw new Error('failed');"),
    # a cancellation check guards only what it leads to
    ("async execute(input, { signal }) { try { return (await axios.get('/a', { signal })).data; } catch (e) { "
     "if (axios.isCancel(e)) return { cancelled: true }; throw e; } }", "throw e;"),
    ("async execute(input, { signal }) { try { return (await axios.get('/a', { signal })).data; } catch (e) { "
     "if (!axios.isCancel(e)) throw e; return { cancelled: true }; } }", "throw e;"),
    ("async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
     "if (!signal.aborted) throw err; return { cancelled: true }; } }", "throw err;"),
    ("async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
     'if (err.name !== "AbortError") throw err; return { cancelled: true }; } }', "throw err;"),
    ("async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
     "if (retry && !signal.aborted) throw err; return { cancelled: true }; } }", "throw err;"),
    ("async execute(input, { signal }) { try { return (await axios.get('/a', { signal })).data; } catch (e) { "
     "if (e.code === 'ERR_NETWORK') throw e; return { error: 'offline' }; } }", "throw e;"),
])
def test_wm401_flags_throws_and_rejections(execute, flagged):
    assert flagged_text(tool(execute), "WM401") == [flagged]


def test_wm401_message_teaches_the_error_value():
    (finding,) = findings(tool('execute() { throw new Error("Menu item not found."); }'), "WM401")
    assert "generic failure" in finding.message
    assert 'return { error: "Menu item not found." }' in finding.message


@pytest.mark.parametrize("execute", [
    "async execute(input, { signal }) { signal.throwIfAborted(); return await work({ signal }); }",
    'async execute(input, { signal }) { if (signal.aborted) { throw new Error("cancelled"); } return {}; }',
    "async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
    "if (signal.aborted) throw err; return { error: String(err) }; } }",
    "async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
    "if (!signal.aborted) return { error: String(err) }; throw err; } }",
    "execute(input, { signal }) { throw signal.reason; }",
    "execute(input, { signal }) { return signal.aborted ? Promise.reject(new Error('stopped')) : { ok: true }; }",
    "execute(input, opts) { if (opts.signal.aborted) throw opts.signal.reason; return {}; }",
    "execute(input, { signal }) { return new Promise((resolve, reject) => { reject(signal.reason); }); }",
    'execute(input, { signal }) { return new Promise((resolve, reject) => { const t = setTimeout(resolve, 9); '
    'signal.addEventListener("abort", () => { clearTimeout(t); reject(new DOMException("Aborted", "AbortError")); '
    '}, { once: true }); }); }',
    "execute(input, { signal }) { return new Promise((resolve, reject) => { const onAbort = () => "
    'reject(new Error("stopped")); signal.addEventListener("abort", onAbort); resolve(1); }); }',
    'execute() { function neverCalled() { throw new Error("x"); } return { ok: true }; }',
    'execute({ n }) { try { if (n < 0) throw new RangeError("negative"); return { n }; } '
    "catch (err) { return { error: err.message }; } }",
    "async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
    'if (err.name === "AbortError") throw err; return { error: "failed" }; } }',
    # axios rejects a cancelled request with a CanceledError (code "ERR_CANCELED"): its abort guards
    "async execute(input, { signal }) { try { return (await axios.get('/a', { signal })).data; } catch (e) { "
    "if (axios.isCancel(e)) throw e; return { error: 'The report service is unavailable.' }; } }",
    "async execute(input, { signal }) { try { return (await axios.get('/a', { signal })).data; } catch (e) { "
    'if (e.code === "ERR_CANCELED") throw e; return { error: "failed" }; } }',
    "async execute(input, { signal }) { try { return (await axios.get('/a', { signal })).data; } catch (e) { "
    'if (e.name === "CanceledError") { throw e; } return { error: "failed" }; } }',
    "async execute(input, { signal }) { try { return (await axios.get('/a', { signal })).data; } catch (e) { "
    "if (isCancel(e)) throw e; return { error: 'failed' }; } }",
    # a `!` on another operand does not negate the check: the throw still happens only on abort
    "async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
    'if (!quiet && err.name === "AbortError") throw err; return { error: "failed" }; } }',
])
def test_wm401_not_flagged(execute):
    assert findings(tool(execute), "WM401") == []


def test_wm401_vue_use_webmcp_is_exempt():
    code = """<script setup>
import { useWebMCP } from "@vueuse/core";
useWebMCP({
  name: "get_cart_total",
  description: "Returns the total price of the items in the user's cart.",
  execute() {
    if (!cart.loaded) throw new Error("The cart has not finished loading.");
    return { total: cart.total };
  },
});
</script>
"""
    assert findings(code, "WM401", "Cart.vue") == []


def test_wm401_react_use_webmcp_is_not_exempt():
    code = """import { useWebMCP } from "use-webmcp-tool";
export function Cart() {
  useWebMCP({
    name: "get_cart_total",
    description: "Returns the total price of the items in the user's cart.",
    execute() { throw new Error("not loaded"); },
  });
  return null;
}
"""
    assert flagged_text(code, "WM401", "Cart.jsx") == ['throw new Error("not loaded");']


# ----------------------------------------------------------------------------- WM402


SWALLOWING = ("async execute({ city }, { signal }) { try { const r = await fetch(`/w?c=${city}`, { signal }); "
              "return await r.json(); } catch (err) { return { error: err.message }; } }")


def test_wm402_flags_a_catch_that_turns_cancellation_into_a_value():
    (finding,) = findings(tool(SWALLOWING), "WM402")
    assert finding.source.slice(finding.start, finding.end).startswith("catch (err)")
    assert "if (signal.aborted) throw err;" in finding.message


def test_wm402_flags_a_catch_that_only_logs():
    execute = ("async execute(input, { signal }) { try { await svc.save(input, { signal }); } "
               "catch (e) { console.error(e); } return { ok: true }; }")
    assert len(findings(tool(execute), "WM402")) == 1


@pytest.mark.parametrize("execute", [
    SWALLOWING.replace("catch (err) {", "catch (err) { if (signal.aborted) throw err;"),
    SWALLOWING.replace("catch (err) {", 'catch (err) { if (err.name === "AbortError") throw err;'),
    SWALLOWING.replace("catch (err) {", "catch (err) { signal.throwIfAborted();"),
    # nothing abortable in the try: nothing to swallow
    "async execute(input) { try { return JSON.parse(input.text); } catch (err) { return { error: 'bad JSON' }; } }",
    # re-throws every error
    SWALLOWING.replace("return { error: err.message };", "report(err); throw err;"),
])
def test_wm402_not_flagged(execute):
    assert findings(tool(execute), "WM402") == []


# ----------------------------------------------------------------------------- WM403


@pytest.mark.parametrize(("execute", "flagged"), [
    ('async execute(input, { signal }) { return await (await fetch("/a")).json(); }', 'fetch("/a")'),
    ('async execute(input, { signal }) { const r = await fetch("/a", { headers: { A: "b" } }); return r.ok; }',
     'fetch("/a", { headers: { A: "b" } })'),
    ('async execute(input, { signal }) { return (await window.fetch("/a")).ok; }', 'window.fetch("/a")'),
    ('async execute(input, { signal }) { return (await axios.get("/a")).data; }', 'axios.get("/a")'),
    ('async execute(input, { signal }) { return (await axios.post("/a", input, { timeout: 5 })).data; }',
     'axios.post("/a", input, { timeout: 5 })'),
    ('async execute(input, { signal }) { return await ky.get("/a").json(); }', 'ky.get("/a")'),
    ('async execute(input, { signal }) { return (await fetch(new Request("/a"))).ok; }', 'new Request("/a")'),
    ('execute(input, { signal }) { return new Promise((done) => { dialog.addEventListener("close", done, '
     '{ once: true }); }); }', 'dialog.addEventListener("close", done, { once: true })'),
    ('execute(input, { signal }) { window.addEventListener("message", onMessage); return {}; }',
     'window.addEventListener("message", onMessage)'),
    ('execute(input, { signal }) { addEventListener("resize", onResize, true); return {}; }',
     'addEventListener("resize", onResize, true)'),
    ("async execute(input, { signal }) { await readable.pipeTo(writable); return {}; }",
     "readable.pipeTo(writable)"),
    ("async execute(input, { signal }) { const out = readable.pipeThrough(decoder); return {}; }",
     "readable.pipeThrough(decoder)"),
    ('async execute(input) { const r = await fetch("/a"); return r.ok; }', 'fetch("/a")'),
])
def test_wm403_flags_abortable_calls_without_a_signal(execute, flagged):
    assert flagged_text(tool(execute), "WM403") == [flagged]


def test_wm403_message_names_the_call_and_where_the_signal_goes():
    (fetch,) = findings(tool('async execute(input, { signal }) { return (await fetch("/a", {})).ok; }'), "WM403")
    assert "`fetch(...)`" in fetch.message and "init object, the second argument" in fetch.message
    (listener,) = findings(tool('execute(input, { signal }) { el.addEventListener("click", go); }'), "WM403")
    assert "`el.addEventListener(...)`" in listener.message and "third argument" in listener.message


@pytest.mark.parametrize("execute", [
    'async execute(input, { signal }) { return (await fetch("/a", init)).ok; }',
    'async execute(input, { signal }) { return (await fetch("/a", { ...init })).ok; }',
    'async execute(input, { signal }) { return (await fetch("/a", { signal })).ok; }',
    'async execute(input, opts) { return (await fetch("/a", { signal: opts.signal })).ok; }',
    'async execute(input, { signal }) { return (await fetch(new Request("/a", { signal }))).ok; }',
    'execute(input, { signal }) { return new Promise((ok, fail) => { signal.addEventListener("abort", () => '
    'fail(signal.reason), { once: true }); }); }',
    'execute(input, opts) { opts.signal.addEventListener("abort", stop); return {}; }',
    'execute(input, { signal }) { function unused() { return fetch("/a"); } return { ok: true }; }',
    'execute(input, { signal }) { el.addEventListener("click", go, { signal }); return {}; }',
    'async execute(input, { signal }) { const api = axios.create({ baseURL: "/v1" }); '
    'return (await api.get("/a", { signal })).data; }',
])
def test_wm403_not_flagged(execute):
    assert findings(tool(execute), "WM403") == []


WAIT_FOR_CLICK = ('execute(input, { signal }) { const button = document.querySelector("#ok"); '
                  "return new Promise((resolve, reject) => { const onClick = () => resolve({ ok: true }); "
                  'button.addEventListener("click", onClick, { once: true }); '
                  'signal.addEventListener("abort", () => { button.removeEventListener("click", onClick); '
                  "reject(signal.reason); }, { once: true }); }); }")


def test_wm403_listener_removed_on_abort_does_not_outlive_the_run():
    assert findings(tool(WAIT_FOR_CLICK), "WM403") == []
    onabort = WAIT_FOR_CLICK.replace('signal.addEventListener("abort", () => {', "signal.onabort = () => {") \
        .replace("}, { once: true }); }); }", "}; }); }")
    assert findings(tool(onabort), "WM403") == []


@pytest.mark.parametrize("removal", [
    'button.removeEventListener("keydown", onClick);',  # another type
    'other.removeEventListener("click", onClick);',  # another target
    'button.removeEventListener("click", onOther);',  # another listener
])
def test_wm403_flags_a_listener_the_abort_listener_does_not_remove(removal):
    execute = WAIT_FOR_CLICK.replace('button.removeEventListener("click", onClick);', removal)
    assert flagged_text(tool(execute), "WM403") == ['button.addEventListener("click", onClick, { once: true })']


def test_wm403_flags_a_listener_removed_outside_an_abort_listener():
    execute = WAIT_FOR_CLICK.replace('signal.addEventListener("abort", () => {', "setTimeout(() => {") \
        .replace("}, { once: true }); }); }", "}, 1000); }); }")
    assert flagged_text(tool(execute), "WM403") == ['button.addEventListener("click", onClick, { once: true })']


@pytest.mark.parametrize(("execute", "fixed"), [
    ('async execute(input, { signal }) { return (await fetch("/a", { headers })).ok; }',
     'fetch("/a", { headers, signal })'),
    ('async execute(input, { signal }) { return (await fetch("/a")).ok; }', 'fetch("/a", { signal })'),
    ('async execute(input, { signal }) { return (await fetch("/a", {})).ok; }', 'fetch("/a", { signal })'),
    ('async execute(input, { signal: s }) { return (await axios.get("/a")).data; }', 'axios.get("/a", { signal: s })'),
])
def test_wm403_unsafe_fix_adds_the_signal(execute, fixed):
    code = tool(execute)
    (finding,) = findings(code, "WM403")
    assert finding.fix.applicability == "unsafe"
    assert fixed in apply_fix(code, finding)


def test_wm403_no_fix_without_a_signal_name_or_for_listeners():
    (no_signal,) = findings(tool('async execute(input) { return (await fetch("/a")).ok; }'), "WM403")
    assert no_signal.fix is None
    (listener,) = findings(tool('execute(input, { signal }) { el.addEventListener("x", go); }'), "WM403")
    assert listener.fix is None


# ----------------------------------------------------------------------------- WM404

STREAM_READING = ("async execute(input, { signal }) { const reader = (await fetch('/s', { signal })).body.getReader(); "
                  "let size = 0; while (true) { const { done, value } = await reader.read(); if (done) break; "
                  "size += value.length; } return { size }; }")


def test_wm404_head_when_no_second_parameter():
    assert flagged_text(tool("async execute() { return await cartService.getItems(); }"), "WM404") == [
        "async execute()"]
    assert flagged_text(tool("execute: async ({ id }) => { return await load(id); }"), "WM404") == [
        "async ({ id })"]
    assert flagged_text(tool("async execute() { await new Promise((r) => setTimeout(r, 9)); return {}; }"),
                        "WM404") == ["async execute()"]


@pytest.mark.parametrize("execute", [
    "execute() { return cartService.getItemsSync(); }",  # synchronous
    "async execute() { return cartService.cached; }",  # awaits nothing
    'async execute() { const { format } = await import("./format.js"); return format(1); }',
])
def test_wm404_head_not_flagged(execute):
    assert findings(tool(execute), "WM404") == []


@pytest.mark.parametrize(("execute", "flagged"), [
    ("async execute(input, { signal }) { return await cartService.getItems(); }", "cartService.getItems()"),
    ("execute: async ({ flightId, passengers }, { signal }) => { return await bookFlightReservation({ flightId, "
     "passengers }); }", "bookFlightReservation({ flightId, passengers })"),
    ("async execute(input, { signal }) { const [a, b] = await Promise.all([one.load({ signal }), two.load()]); "
     "return { a, b }; }", "two.load()"),
    ("async execute(input, opts) { return await svc.get(input.id); }", "svc.get(input.id)"),
    ("async execute({ ids }, { signal }) { return await Promise.all(ids.map((id) => rows.load(id).then((r) => r.rows"
     "))); }", "rows.load(id)"),
    ("async execute({ id }, { signal }) { return await Promise.allSettled([one.load(id, { signal }), "
     "two.load(id).catch(() => null)]); }", "two.load(id)"),
])
def test_wm404_flags_awaited_helpers_without_the_signal(execute, flagged):
    code = tool(execute)
    assert flagged_text(code, "WM404") == [flagged]
    assert "signal" in findings(code, "WM404")[0].message


def test_wm404_message_shows_how_to_reach_the_signal():
    (finding,) = findings(tool("async execute(input, opts) { return await svc.get(input.id); }"), "WM404")
    assert "`svc.get(..., { signal: opts.signal })`" in finding.message


@pytest.mark.parametrize("execute", [
    'async execute(input, { signal }) { const r = await fetch("/a", { signal }); const j = await r.json(); '
    "const t = await r.text(); const b = await r.blob(); const ab = await r.arrayBuffer(); "
    "const f = await r.formData(); return j; }",
    "async execute(input, { signal }) { await Promise.resolve(); await Promise.race([a, b]); "
    "await Promise.allSettled(list); return await Promise.all(list); }",
    "async execute(input, { signal }) { await new Promise((resolve) => requestAnimationFrame(resolve)); return {}; }",
    'async execute(input, { signal }) { return (await fetch("/a")).ok; }',  # WM403's
    "async execute(input, { signal }) { return await load(input.id, signal); }",
    "async execute(input, { signal }) { return await load({ id: input.id }, { signal }); }",
    "async execute(input, opts) { return await load(input.id, opts); }",
    "async execute(input, { signal }) { const out = []; for (const id of ids) { signal.throwIfAborted(); "
    "out.push(await legacy.load(id)); } return out; }",
    "async execute(input, { signal }) { const out = []; for (const id of ids) { if (signal.aborted) break; "
    "out.push(await legacy.load(id)); } return out; }",
    "async execute(input, { signal }) { const step = async () => fetch('/a', { signal }); return await step(); }",
    "async execute(input, { signal }) { await navigator.clipboard.writeText(input.text); return { ok: true }; }",
    'async execute(input, { signal }) { await customElements.whenDefined("x-card"); return { ok: true }; }',
    'async execute(input, { signal }) { const db = await openDB("files", 1); return await db.getAll("recent"); }',
    "execute(input, { signal }) { return cartService.getItems(); }",  # synchronous
    STREAM_READING,
    "async execute(input, { signal }) { const trips = await find({ signal }); return trips.map((t) => t.id); }",
    # combined calls that pass the signal, through their .then/.catch/.finally chains as a direct await is
    "async execute({ ids }, { signal }) { const rows = await Promise.all(ids.map((id) => fetch(`/r/${id}`, "
    "{ signal }).then((r) => r.json()))); return { rows }; }",
    "async execute({ ids }, { signal }) { return await Promise.all(ids.map(async (id) => await rows.load(id, "
    "{ signal }).then((r) => r.rows).finally(done))); }",
    "async execute({ id }, { signal }) { return await Promise.allSettled([one.load(id, { signal }).then(pick), "
    "two.load(id, signal).catch(() => null)]); }",
    "async execute({ id }, { signal }) { return await one.load(id, { signal }).then(pick).catch(() => null); }",
])
def test_wm404_not_flagged(execute):
    assert findings(tool(execute), "WM404") == []


@pytest.mark.parametrize("execute", [
    # a Cache from caches.open takes no signal in any method
    'async execute(input, { signal }) { const cache = await caches.open("reports"); '
    'const hit = await cache.match("/api/report"); return hit ? await hit.json() : { error: "x" }; }',
    'async execute(input, { signal }) { return { hit: !!(await (await caches.open("v1")).match("/r")) }; }',
    # a media element's play() takes none
    'async execute(input, { signal }) { await document.querySelector("video").play(); return { ok: true }; }',
    'async execute(input, { signal }) { const player = new Audio("/a.mp3"); await player.play(); return {}; }',
])
def test_wm404_apis_without_a_signal_are_not_flagged(execute):
    assert findings(tool(execute), "WM404") == []


@pytest.mark.parametrize(("execute", "flagged"), [
    # the same methods on receivers that show no Cache or media element
    ('async execute(input, { signal }) { return { hit: await store.match("/r") }; }', 'store.match("/r")'),
    ("async execute(input, { signal }) { await game.play(); return {}; }", "game.play()"),
])
def test_wm404_flags_same_methods_on_other_receivers(execute, flagged):
    assert flagged_text(tool(execute), "WM404") == [flagged]


def test_wm404_vue_execute_cannot_take_a_signal():
    code = """<script setup>
import { useWebMCP } from "@vueuse/core";
useWebMCP({
  name: "get_cart",
  description: "Returns the user's cart.",
  async execute() { return await cart.load(); },
});
</script>
"""
    assert findings(code, "WM404", "Cart.vue") == []


# ----------------------------------------------------------------------------- WM405


@pytest.mark.parametrize(("execute", "flagged"), [
    ("execute(input, { signal }) { return new Promise((resolve) => setTimeout(() => resolve({ ok: true }), 500)); }",
     "setTimeout(() => resolve({ ok: true }), 500)"),
    ("execute(input, { signal }) { const id = setInterval(refresh, 1000); return { id }; }",
     "setInterval(refresh, 1000)"),
    ("async execute(input, { signal }) { while (!document.querySelector('#done')) { "
     "await nextFrame(); } return {}; }", "while (!document.querySelector('#done'))"),
    ("async execute(input) { for (;;) { if (await ready()) break; } return {}; }", "for (;;)"),
])
def test_wm405_flags_timers_and_polling_without_abort_handling(execute, flagged):
    assert flagged_text(tool(execute), "WM405") == [flagged]


def test_wm405_polling_loop_and_its_sleep_timer_are_both_reported():
    execute = ("async execute(input, { signal }) { while (!(await fetch('/ready', { signal })).ok) { "
               "await new Promise((r) => setTimeout(r, 200)); } return {}; }")
    assert flagged_text(tool(execute), "WM405") == [
        "while (!(await fetch('/ready', { signal })).ok)", "setTimeout(r, 200)"]


@pytest.mark.parametrize("execute", [
    "execute(input, { signal }) { return new Promise((resolve, reject) => { const t = setTimeout(resolve, 500); "
    'signal.addEventListener("abort", () => { clearTimeout(t); reject(signal.reason); }, { once: true }); }); }',
    "async execute(input, { signal }) { while (!done()) { signal.throwIfAborted(); "
    "await new Promise((r) => setTimeout(r, 200)); } return {}; }",
    "async execute(input, { signal }) { while (!done() && !signal.aborted) { "
    "await new Promise((r) => setTimeout(r, 200)); } return {}; }",
    "execute(input, { signal }) { const t = setTimeout(go, 500); "
    'button.addEventListener("click", () => clearTimeout(t), { signal }); return {}; }',
    "async execute(input, { signal }) { for (const id of ids) { await save(id); } return {}; }",  # not polling
    STREAM_READING,  # reads a body the signal already ends
    "async execute(input, { signal }) { const controller = new AbortController(); "
    "const timer = setTimeout(() => controller.abort(), 5000); try { return await load({ signal: "
    "AbortSignal.any([signal, controller.signal]) }); } finally { clearTimeout(timer); } }",
    "async execute(input, { signal }) { let page = 1; while (page) { const r = await fetch(`/p/${page}`, "
    "{ signal }); page = (await r.json()).next; } return {}; }",
])
def test_wm405_not_flagged(execute):
    assert findings(tool(execute), "WM405") == []


# ----------------------------------------------------------------------------- WM406


@pytest.mark.parametrize(("execute", "head"), [
    ('async execute({ query }, signal) { return (await fetch("/a", { signal })).ok; }',
     "async execute({ query }, signal)"),
    ('async execute(input, abortSignal) { return (await fetch("/a", { signal: abortSignal })).ok; }',
     "async execute(input, abortSignal)"),
    ("execute(input, opts) { if (opts.aborted) return {}; return { ok: true }; }", "execute(input, opts)"),
    ("execute(input, opts) { opts.throwIfAborted(); return {}; }", "execute(input, opts)"),
    ("execute(input, opts) { if (opts.reason) return {}; return {}; }", "execute(input, opts)"),
    ('async execute(input, opts) { return (await fetch("/a", { signal: opts })).ok; }', "async execute(input, opts)"),
])
def test_wm406_flags_the_options_object_used_as_the_signal(execute, head):
    assert flagged_text(tool(execute), "WM406") == [head]


@pytest.mark.parametrize("execute", [
    'async execute(input, { signal }) { return (await fetch("/a", { signal })).ok; }',
    'async execute(input, opts) { return (await fetch("/a", { signal: opts.signal })).ok; }',
])
def test_wm406_not_flagged(execute):
    assert findings(tool(execute), "WM406") == []


@pytest.mark.parametrize(("execute", "fixed"), [
    ('async execute({ query }, signal) { return (await fetch("/a", { signal })).ok; }',
     "async execute({ query }, { signal })"),
    ('async execute(input, abortSignal) { abortSignal.throwIfAborted(); return {}; }',
     "async execute(input, { signal: abortSignal })"),
])
def test_wm406_safe_fix_destructures(execute, fixed):
    code = tool(execute)
    (finding,) = findings(code, "WM406")
    assert finding.fix.applicability == "safe"
    fixed_code = apply_fix(code, finding)
    assert fixed in fixed_code
    assert findings(fixed_code, "WM406") == []


def test_wm406_safe_fix_keeps_the_typescript_type():
    code = tool("async execute(input: { q: string }, signal: AbortSignal) { signal.throwIfAborted(); return {}; }")
    (finding,) = findings(code, "WM406", "app.ts")
    assert "{ signal }: { signal: AbortSignal }" in apply_fix(code, finding)


def test_wm406_no_fix_when_the_name_is_also_used_as_the_options_object():
    code = tool("async execute(input, signal) { if (signal.aborted) return {}; return await load(input, signal); }")
    (finding,) = findings(code, "WM406")
    assert finding.fix is None


# ----------------------------------------------------------------------------- WM407

SORT_SCHEMA = ('{ type: "object", properties: { query: { type: "string" }, '
               'sort: { type: "string", enum: ["newest", "oldest"], default: "newest" } } }')


@pytest.mark.parametrize(("execute", "flagged"), [
    ("async execute({ query, sort }, { signal }) { return await search({ query, sort }, { signal }); }", "sort"),
    ("async execute({ query, sort: order }, { signal }) { return await search({ query, order }, { signal }); }",
     "sort: order"),
    ("execute(input) { return list(input.query, input.sort); }", "input.sort"),
    ("execute(input) { const { sort } = input; return list(sort); }", "sort"),
    ('execute({ sort }) { return list(sort ? sort : sort); }', "sort"),
])
def test_wm407_flags_defaults_never_applied(execute, flagged):
    code = tool(execute, SORT_SCHEMA)
    assert flagged_text(code, "WM407") == [flagged]
    assert '"newest"' in findings(code, "WM407")[0].message


@pytest.mark.parametrize("execute", [
    'async execute({ query, sort = "newest" }, { signal }) { return await search({ query, sort }, { signal }); }',
    'execute(input) { return list(input.sort ?? "newest"); }',
    'execute(input) { return list(input.sort || "newest"); }',
    'execute(input) { const sort = input.sort; return list(sort === undefined ? "newest" : sort); }',
    'execute(input) { if (typeof input.sort === "undefined") input.sort = "newest"; return list(input.sort); }',
    'execute({ sort }) { sort ??= "newest"; return list(sort); }',
    'execute(input) { let sort = input.sort; if (!sort) sort = "newest"; return list(sort); }',
    "execute(input) { return list(input.query); }",  # never reads sort
    'execute(input) { const options = { sort: "newest", ...input }; return list(options.sort); }',
    'execute({ sort }) { const order = typeof sort === "string" ? sort : "newest"; return list(order); }',
    'execute(input) { return list(SORTS.includes(input.sort) ? input.sort : "newest"); }',
])
def test_wm407_not_flagged(execute):
    assert findings(tool(execute, SORT_SCHEMA), "WM407") == []


# ----------------------------------------------------------------------------- WM408

AREA_SCHEMA = ('{ type: "object", properties: { width: { type: "number" }, height: { type: "number" } }, '
               'required: ["width", "height"] }')


def test_wm408_flags_reading_constrained_input_unchecked():
    assert flagged_text(tool("execute(input) { return input.width * input.height; }", AREA_SCHEMA),
                        "WM408") == ["execute(input)"]
    enum_schema = '{ type: "object", properties: { size: { type: "string", enum: ["s", "m"] } } }'
    assert flagged_text(tool("execute({ size }) { return { size }; }", enum_schema), "WM408") == [
        "execute({ size })"]


@pytest.mark.parametrize("execute", [
    "execute() { return { ok: true }; }",  # does not read input
    'execute({ width, height }) { if (typeof width !== "number") return { error: "x" }; return width * height; }',
    'execute({ width, height }) { if (!Number.isFinite(width) || !Number.isFinite(height)) return { error: "x" }; '
    "return width * height; }",
    'execute({ width, height }) { if (!Number.isInteger(width)) return { error: "x" }; return width * height; }',
    'execute({ width, height }) { if (width <= 0 || height <= 0) return { error: "x" }; return width * height; }',
    'execute(input) { if (!["a", "b"].includes(input.width)) return { error: "x" }; return input.width; }',
    'execute(input) { if (!("width" in input)) return { error: "x" }; return input.width; }',
    'execute(input) { if (!Array.isArray(input.width)) return { error: "x" }; return input.width; }',
    'execute(input) { if (!(input.width instanceof Object)) return { error: "x" }; return input.width; }',
    'execute(input) { if (!/^\\d+$/.test(input.width)) return { error: "x" }; return input.width; }',
    "execute(input) { const parsed = Area.safeParse(input); return parsed.success ? parsed.data.width : {}; }",
    "execute(input) { const area = Area.parse(input); return area.width * area.height; }",
    'execute(input) { if (!validate(input)) return { error: "x" }; return input.width; }',
    "execute(input) { const { width, height } = v.parse(AreaSchema, input); return width * height; }",
    "execute(input) { validateArea(input); return input.width * input.height; }",
    "execute(input) { assertPositive(input.width); return input.width * input.height; }",
    'execute({ width, height }) { if (!width || !height) return { error: "x" }; return width * height; }',
])
def test_wm408_not_flagged(execute):
    assert findings(tool(execute, AREA_SCHEMA), "WM408") == []


SORT_ENUM_SCHEMA = '{ type: "object", properties: { sort: { type: "string", enum: ["newest", "popular"] } } }'


@pytest.mark.parametrize("execute", [
    # every case compares the value
    'execute({ sort = "newest" }) { switch (sort) { case "newest": return { posts: [] }; '
    'case "popular": return { posts: [] }; default: return { error: `Unknown sort ${sort}.` }; } }',
    'execute(input) { switch (input.sort) { case "newest": return { posts: [] }; } return { error: "x" }; }',
    # a lookup keyed by the input, whose miss is handled
    'execute({ sort }) { const order = ORDERS[sort]; if (!order) return { error: "x" }; return { posts: order() }; }',
    'execute(input) { const order = orders.get(input.sort); if (order === undefined) return { error: "x" }; '
    "return { posts: order() }; }",
])
def test_wm408_switch_cases_and_handled_lookups_validate(execute):
    assert findings(tool(execute, SORT_ENUM_SCHEMA), "WM408") == []


@pytest.mark.parametrize("execute", [
    # a switch with only a default compares nothing
    'execute({ sort }) { switch (sort) { default: return { posts: load(sort) }; } }',
    # a switch on something else, a lookup whose miss is not handled, a check of a lookup not keyed by the input
    'execute({ sort }) { switch (mode) { case "a": return { posts: load(sort) }; } return {}; }',
    "execute({ sort }) { const order = ORDERS[sort]; return { posts: order() }; }",
    'execute({ sort }) { const order = ORDERS[mode]; if (!order) return { error: "x" }; return { posts: load(sort) }; }',
])
def test_wm408_flags_switches_and_lookups_that_check_nothing(execute):
    assert len(findings(tool(execute, SORT_ENUM_SCHEMA), "WM408")) == 1


def test_wm408_needs_schema_constraints():
    plain = '{ type: "object", properties: { width: { type: "number" } } }'
    assert findings(tool("execute(input) { return input.width * 2; }", plain), "WM408") == []


# ----------------------------------------------------------------------------- WM409


@pytest.mark.parametrize(("execute", "said"), [
    ('execute() { return new Error("no"); }', "an `Error`"),
    ('execute() { return new AggregateError([], "no"); }', "an `AggregateError`"),
    ('execute() { return new TypeError("no"); }', "a `TypeError`"),
    ("execute() { return new Map(); }", "a `Map`"),
])
def test_wm409_message_article_fits_the_name(execute, said):
    (finding,) = findings(tool(execute), "WM409")
    assert said in finding.message


@pytest.mark.parametrize(("execute", "flagged", "word"), [
    ('execute() { return new Error("no"); }', 'new Error("no")', "Error"),
    ("async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
     "if (signal.aborted) throw err; return err; } }", "err", "caught error"),
    ('execute() { const failure = new TypeError("no"); return failure; }', "failure", "TypeError"),
    ("execute() { return new Map([[1, 2]]); }", "new Map([[1, 2]])", "Map"),
    ("execute() { return new Set(tags); }", "new Set(tags)", "Set"),
    ("execute() { return 10n; }", "10n", "BigInt"),
    ("execute() { return () => 1; }", "() => 1", "function"),
    ('execute() { return Symbol("x"); }', 'Symbol("x")', "Symbol"),
    ('execute() { return document.querySelector("#summary"); }', 'document.querySelector("#summary")', "DOM"),
    ('execute() { return document.getElementById("x"); }', 'document.getElementById("x")', "DOM"),
    ('execute() { const el = document.createElement("div"); return el; }', "el", "DOM"),
    ('execute: () => new Map()', "new Map()", "Map"),
    ('execute({ ok }) { return ok ? { ok } : new Error("no"); }', 'new Error("no")', "Error"),
    ("async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
     "if (signal.aborted) throw err; return { error: err }; } }", "err", "caught error"),
    ("execute() { return { tags: new Set(tags), count: tags.length }; }", "new Set(tags)", "Set"),
    ("execute() { const failure = new Error('x'); return [1, failure]; }", "failure", "Error"),
])
def test_wm409_flags_values_json_cannot_carry(execute, flagged, word):
    code = tool(execute)
    assert flagged_text(code, "WM409") == [flagged]
    assert word in findings(code, "WM409")[0].message


@pytest.mark.parametrize(("before", "word"), [
    ('const held = document.querySelector("#panel");', "DOM"),
    ('const held = Symbol.for("probe");', "Symbol"),
])
def test_wm409_flags_a_call_made_outside_execute(before, word):
    """The call a returned name holds lies outside execute, where the model named no call."""
    code = tool("execute() { return held; }", before=before)
    assert flagged_text(code, "WM409") == ["held"]
    assert word in findings(code, "WM409")[0].message


@pytest.mark.parametrize("execute", [
    "async execute(input, { signal }) { try { return await load({ signal }); } catch (err) { "
    "if (signal.aborted) throw err; return { error: err instanceof Error ? err.message : String(err) }; } }",
    "execute() { return [...new Set(tags)]; }",
    "execute() { return Object.fromEntries(new Map(pairs)); }",
    'execute() { const panel = document.querySelector("#x"); return { text: panel.textContent }; }',
    "execute() { return items.map((item) => () => item); }",
    "execute() { return String(10n); }",
])
def test_wm409_not_flagged(execute):
    assert findings(tool(execute), "WM409") == []


# ----------------------------------------------------------------------------- every source of tools


def test_findings_point_into_the_module_that_defines_execute(tmp_path):
    result = lint_project(tmp_path, {
        "tools.js": """export function createInventoryTool(inventory) {
  return {
    name: "get_inventory",
    description: "Lists items in the inventory.",
    execute() {
      if (!inventory.ready) throw new Error("Inventory not loaded.");
      return inventory.items();
    },
  };
}
""",
        "main.js": 'import { createInventoryTool } from "./tools.js";\n'
                   "await document.modelContext.registerTool(createInventoryTool(store));\n",
    })
    (finding,) = [d for d in result.diagnostics if d.code == "WM401"]
    assert finding.path.endswith("tools.js") and finding.start_position() == (6, 29)


def test_execute_rules_run_on_html_script_blocks():
    page = """<!doctype html>
<script type="module">
  await document.modelContext.registerTool({
    name: "get_hours",
    description: "Returns the shop's opening hours for the coming week.",
    async execute(input, { signal }) {
      const response = await fetch("/api/hours");
      return response.json();
    },
  });
</script>
"""
    (finding,) = findings(page, "WM403", "index.html")
    assert finding.start_position() == (7, 30)


# ----------------------------------------------------------------------------- how an integration calls execute
# @vueuse/core and usewebmcp (re-exported by @mcp-b/react-webmcp) call `execute(input)` with no signal, and turn a
# throw into an isError result with its message; only @vueuse/core does the same for a returned Error.


def integration_tool(module: str, execute: str) -> tuple[str, str]:
    """A tool declared through ``module``'s useWebMCP with this execute, and the file name to lint it as."""
    call = f"""useWebMCP({{
  name: "get_weather",
  description: "Report the weather for the city the user asks about.",
  {execute},
}});"""
    if module == "@vueuse/core":
        return f'<script setup>\nimport {{ useWebMCP }} from "{module}";\n{call}\n</script>\n', "Weather.vue"
    return (f'import {{ useWebMCP }} from "{module}";\nexport function Weather() {{\n  {call}\n  return null;\n}}\n',
            "Weather.jsx")


NO_SIGNAL_MODULES = ("@vueuse/core", "usewebmcp", "@mcp-b/react-webmcp")
UNCANCELLABLE_EXECUTE = ("async execute({ city }) { await new Promise((done) => setTimeout(done, 500)); "
                         "while (!(await poll(city))) { await sleep(100); } "
                         "const r = await fetch(`/w?c=${city}`); return await weather.load(city); }")


@pytest.mark.parametrize("module", NO_SIGNAL_MODULES)
def test_integrations_without_a_run_signal_get_no_signal_advice(module):
    code, filename = integration_tool(module, UNCANCELLABLE_EXECUTE)
    assert findings(code, "WM403", filename) == []
    assert findings(code, "WM404", filename) == []
    assert findings(code, "WM405", filename) == []


@pytest.mark.parametrize("module", NO_SIGNAL_MODULES)
def test_wm406_gives_no_destructuring_advice_where_no_options_object_comes(module):
    """Destructuring `{ signal }` from an argument that is never passed throws at every call."""
    misused = "async execute({ city }, signal) { return await weather.load(city, { signal }); }"
    code, filename = integration_tool(module, misused)
    assert findings(code, "WM406", filename) == []
    code, filename = integration_tool("use-webmcp-tool", misused)  # it passes the options object: the advice holds
    assert len(findings(code, "WM406", filename)) == 1


@pytest.mark.parametrize("rule", ["WM403", "WM404", "WM405"])
def test_an_integration_that_passes_the_signal_still_gets_signal_advice(rule):
    code, filename = integration_tool("use-webmcp-tool", UNCANCELLABLE_EXECUTE)
    assert findings(code, rule, filename) != []


@pytest.mark.parametrize("module", ["usewebmcp", "@mcp-b/react-webmcp"])
def test_wm401_mcp_b_use_webmcp_reports_throws_itself(module):
    code, filename = integration_tool(module, 'execute() { throw new Error("The city is unknown."); }')
    assert findings(code, "WM401", filename) == []


RETURNS_AN_ERROR = ('async execute({ city }) { try { return await weather.load(city); } '
                    'catch (err) { if (err.status) return err; return new Error(`No weather for ${city}.`); } }')


def test_wm409_vue_reports_a_returned_error_itself():
    code, filename = integration_tool("@vueuse/core", RETURNS_AN_ERROR)
    assert findings(code, "WM409", filename) == []


@pytest.mark.parametrize("execute, flagged", [
    ("execute() { return { error: new Error(\"No city.\") }; }", ['new Error("No city.")']),
    ("execute() { return new Map(); }", ["new Map()"]),
])
def test_wm409_vue_still_flags_errors_inside_the_result_and_other_values(execute, flagged):
    code, filename = integration_tool("@vueuse/core", execute)
    assert flagged_text(code, "WM409", filename) == flagged


@pytest.mark.parametrize("module", ["usewebmcp", "@mcp-b/react-webmcp", "use-webmcp-tool"])
def test_wm409_a_returned_error_is_lost_outside_vue(module):
    code, filename = integration_tool(module, RETURNS_AN_ERROR)
    assert flagged_text(code, "WM409", filename) == ["err", "new Error(`No weather for ${city}.`)"]

"""The execute model: the facts every execute rule reads, computed once per tool."""

from __future__ import annotations

from pathlib import Path

from support import write_project

from webmcp_lint.engine import Settings, lint_paths, lint_text
from webmcp_lint.execute import execute_of
from webmcp_lint.syntax import text


def tools_of(code: str, filename: str = "app.js"):
    result = lint_text(code, filename, Settings(rules=[]))
    return list(result.project.tools)


def model_of(execute: str, before: str = "", filename: str = "app.js"):
    code = f"""{before}
document.modelContext.registerTool({{
  name: "probe",
  description: "A tool for tests.",
  {execute},
}});
"""
    (tool,) = tools_of(code, filename)
    model = execute_of(tool)
    assert model is not None
    return model


# ------------------------------------------------------------------ the function and its parameters


def test_method_arrow_and_bound_function_are_all_found():
    assert model_of("async execute(input, { signal }) { return 1; }").is_async
    assert not model_of("execute: (input) => input.a").is_async
    bound = model_of("execute: run", before="async function run(input, { signal }) { await work(); }")
    assert bound.function.type == "function_declaration" and bound.is_async


def test_execute_that_is_not_a_function_has_no_model():
    (tool,) = tools_of('document.modelContext.registerTool({ name: "a", description: "b", execute: 42 });')
    assert execute_of(tool) is None


def test_model_is_built_once_per_tool():
    (tool,) = tools_of('document.modelContext.registerTool({ name: "a", description: "b", execute() {} });')
    assert execute_of(tool) is execute_of(tool)


def test_input_parameter_plain_and_destructured_with_defaults():
    plain = model_of("execute(input) {}")
    assert plain.input.name == "input" and not plain.input.keys
    destructured = model_of('execute({ query, sort = "newest", limit: max = 10 }) {}')
    keys = destructured.input.keys
    assert set(keys) == {"query", "sort", "limit"}
    assert keys["query"].default is None
    assert text(keys["sort"].default) == '"newest"'
    assert keys["limit"].local == "max" and text(keys["limit"].default) == "10"


def test_typescript_parameters_are_unwrapped():
    model = model_of("async execute({ query }: Input, { signal }: { signal: AbortSignal }) {}", filename="app.ts")
    assert set(model.input.keys) == {"query"}
    assert model.signal_names == {"signal"}


# ------------------------------------------------------------------ names the signal is reachable by


def test_signal_names_from_every_form():
    assert model_of("execute(input, { signal }) {}").signal_names == {"signal"}
    assert model_of("execute(input, { signal: s }) {}").signal_names == {"s"}
    opts = model_of("execute(input, opts) { return opts.signal; }")
    assert opts.options_names == {"opts"} and opts.signal_names == set()
    assert model_of("execute(input, opts) { const { signal } = opts; }").signal_names == {"signal"}
    assert model_of("execute(input, opts) { const s = opts.signal; }").signal_names == {"s"}
    assert model_of("execute(input, { signal }) { let s; s = signal; }").signal_names == {"signal", "s"}
    combined = model_of("execute(input, { signal }) { const both = AbortSignal.any([signal, other]); }")
    assert "both" in combined.signal_names


def test_no_second_parameter_means_no_signal_in_scope():
    model = model_of("async execute(input) { await work(); }")
    assert not model.signal_in_scope and model.parameter_count == 1


# ------------------------------------------------------------------ what runs as part of execute


def test_inline_callbacks_run_but_uncalled_named_functions_do_not():
    model = model_of("""async execute(input, { signal }) {
      function neverCalled() { fetch("/a"); }
      const helper = () => fetch("/b");
      items.forEach((item) => fetch("/c"));
      await new Promise((resolve) => setTimeout(resolve, 10));
      (() => fetch("/d"))();
      img.onload = () => fetch("/e");
      return helper();
    }""")
    urls = sorted(text(fetch.url) for fetch in model.fetches)
    assert urls == ['"/b"', '"/c"', '"/d"', '"/e"']


def test_named_function_passed_as_callback_runs():
    model = model_of("""execute(input, { signal }) {
      function onAbort() { cleanup(); }
      signal.addEventListener("abort", onAbort);
    }""")
    assert len(model.abort_listeners) == 1
    assert any(call.name == "cleanup" for call in model.calls)


# ------------------------------------------------------------------ calls and awaits

def test_the_walk_looks_into_syntax_errors():
    # `@` makes an ERROR node around the call: its kind id lies past the grammar's node kinds
    model = model_of('async execute(input) { await @fetch("/a", { method: "POST" }); return 1; }')
    assert [call.name for call in model.calls] == ["fetch"]
    assert model.function.has_error


def test_awaited_calls_through_then_chains_and_promise_all():
    model = model_of("""async execute(input, { signal }) {
      await svc.load().then((r) => r);
      await Promise.all([a.one(), b.two()]);
      await Promise.all(ids.map((id) => store.get(id)));
      notAwaited();
    }""")
    awaited = {call.name for call in model.awaited_calls}
    assert {"svc.load", "Promise.all", "a.one", "b.two", "store.get"} <= awaited
    assert "notAwaited" not in awaited


def test_signal_api_calls_and_their_status():
    model = model_of("""async execute(input, { signal }) {
      fetch("/a");
      fetch("/b", { headers });
      fetch("/c", { signal });
      fetch("/d", init);
      fetch("/e", { ...init });
      axios.post("/f", body, { signal });
      dialog.addEventListener("close", done);
      signal.addEventListener("abort", stop);
      readable.pipeTo(writable);
    }""")
    statuses = [(api.api, api.status) for api in model.signal_api_calls]
    assert statuses == [("fetch", "missing"), ("fetch", "missing"), ("fetch", "given"), ("fetch", "unknown"),
                        ("fetch", "unknown"), ("axios.post", "given"), ("addEventListener", "missing"),
                        ("pipeTo", "missing")]


def test_fetches_carry_url_and_method():
    model = model_of("""async execute({ url }, { signal }) {
      await fetch(url, { signal });
      await fetch("/api/items", { method: "post", signal });
      await axios.delete(`/api/items/${id}`, { signal });
      await axios({ url: "/x", method: "PUT", signal });
      await fetch("/y", options);
    }""")
    assert [(text(fetch.url), fetch.method) for fetch in model.fetches] == [
        ("url", "GET"), ('"/api/items"', "POST"), ("`/api/items/${id}`", "DELETE"), ('"/x"', "PUT"), ('"/y"', None)]


# ------------------------------------------------------------------ control facts


def test_throws_know_their_guards():
    model = model_of("""async execute(input, { signal }) {
      if (signal.aborted) throw new Error("stopped");
      if (!signal.aborted) { throw new Error("not guarded"); }
      try { throw new Error("caught"); } catch (err) {
        if (!signal.aborted) return { error: err.message };
        throw err;
      }
      throw signal.reason;
    }""")
    facts = [(throw.abort_guarded, throw.caught_locally, throw.throws_signal_reason) for throw in model.throws]
    assert facts == [(True, False, False), (False, False, False), (False, True, False), (True, False, False),
                     (False, False, True)]


def test_a_throw_is_caught_locally_only_by_a_try_with_a_catch_in_its_own_function():
    model = model_of("""async execute(input, { signal }) {
      try {
        throw new Error("caught");
        items.forEach((item) => { throw new Error("in a callback"); });
      } catch (err) { return { error: err.message }; }
      try { throw new Error("no catch"); } finally { done(); }
    }""")
    assert [throw.caught_locally for throw in model.throws] == [True, False, False]


def test_each_fact_belongs_to_the_innermost_function_that_runs_it():
    model = model_of("""async execute(input, { signal }) {
      while (!done()) {
        items.forEach(async (item) => {
          await save(item);
          try { list.map((x) => { throw new Error("deep"); }); } catch (err) { return null; }
        });
      }
      return 1;
    }""")
    (loop,) = model.loops
    assert not loop.awaits  # the await is the callback's, not the loop's function's
    (throw,) = model.throws
    assert not throw.caught_locally  # the try is the forEach callback's, the throw the map callback's inside it
    assert [text(ret.value) for ret in model.execute_returns] == ["1"]
    assert len(model.returns) == 2


def test_signal_mentions_are_the_tokens_the_walk_reaches():
    model = model_of("""async execute(input, { signal }) {
      const s = signal;
      await one(s);
      await two({ signal });
      await three(class { run() { return signal; } });
      await four((options = signal) => options);
      await five(() => signal.aborted);
      await six("signal", mysignal);
      await seven(opts.signal);
    }""")
    mentions = {call.name: model.passes_signal(call) for call in model.awaited_calls}
    assert mentions == {"one": True, "two": True, "three": False, "four": False, "five": True, "six": False,
                        "seven": True}


def test_catches_loops_and_timers():
    model = model_of("""async execute(input, { signal }) {
      try { await svc.load({ signal }); } catch (err) { return { error: String(err) }; }
      while (!ready()) { signal.throwIfAborted(); await tick(); }
      for (const id of ids) { await load(id); }
      const timer = setTimeout(done, 100);
    }""")
    (catch,) = model.catches
    assert catch.parameter == "err" and len(catch.abortable_calls) == 1
    assert not catch.checks_abort and not catch.rethrows
    assert [(loop.polling, loop.awaits, loop.checks_abort) for loop in model.loops] == [
        (True, True, True), (False, True, False)]
    assert [timer.name for timer in model.timers] == ["setTimeout"]


def test_returns_resolve_const_bindings_and_caught_errors():
    model = model_of("""execute(input) {
      const failure = new Error("x");
      if (input.a) return failure;
      try { work(); } catch (err) { return err; }
      items.map((item) => item.id);
      return { ok: true };
    }""")
    returns = model.execute_returns
    assert len(returns) == 3  # the map callback's return is not execute's
    resolved, caught = model.returned_value(returns[0].value)
    assert text(resolved) == 'new Error("x")' and not caught
    assert model.returned_value(returns[1].value)[1]


def test_writes_follow_the_shared_lists():
    model = model_of("""async execute(input, { signal }) {
      localStorage.setItem("k", "v");
      window.sessionStorage.removeItem("k");
      const store = db.transaction("cart", "readwrite").objectStore("cart");
      store.put({ id: 1 });
      cache.delete("k");
      await fetch("/api/cart", { method: "PATCH", signal });
      navigator.sendBeacon("/log", "x");
      document.cookie = "a=b";
    }""")
    assert [write.kind for write in model.writes] == ["storage", "storage", "indexeddb", "http", "beacon", "cookie"]


def test_input_reads_and_defaults():
    model = model_of("""execute(input) {
      const { page = 1, size } = input;
      const sort = input.sort ?? "newest";
      const order = input.order;
      if (input.limit === undefined) {}
      return [size, order, input.query];
    }""")
    assert set(model.input_reads) == {"page", "size", "sort", "order", "limit", "query"}
    assert model.defaulted_input_keys() == {"page", "sort", "limit"}


def test_execute_defined_in_another_module(tmp_path: Path):
    write_project(tmp_path, {
        "tools.js": """export function createInventoryTool(manager) {
  return {
    name: "get_inventory",
    description: "Lists items in the inventory.",
    async execute(input, { signal }) { return await manager.items(); },
  };
}
""",
        "main.js": """import { createInventoryTool } from "./tools.js";
document.modelContext.registerTool(createInventoryTool(inventory));
""",
    })
    result = lint_paths([str(tmp_path)], Settings(rules=[]))
    (tool,) = list(result.project.tools)
    model = execute_of(tool, result.project)
    assert model is not None and model.source.display_path.endswith("tools.js")
    assert [call.name for call in model.awaited_calls] == ["manager.items"]


# ------------------------------------------------------------------ names read from the text, checks found from it


def test_callee_names_plain_chains_and_the_rest():
    model = model_of("""async execute(input, { signal }) {
      window.fetch("/a");
      this.store.items.get(1);
      cart . items . add(2);
      cart/* c */.items.remove(3);
      client?.get("/b");
      import.meta.resolve("x");
      true.toString();
      (await svc()).run();
      a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p();
      a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q();
    }""")
    named = {(call.name, call.method) for call in model.calls}
    assert ("fetch", "fetch") in named  # window. is stripped, the method stays
    assert ("this.store.items.get", "get") in named
    assert ("cart.items.add", "add") in named and ("cart.items.remove", "remove") in named
    assert ("client.get", "get") in named
    assert (None, "resolve") in named and (None, "toString") in named and (None, "run") in named
    assert ("a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p", "p") in named  # 16 names: the longest chain named
    assert (None, "q") in named
    roots = {call.name: call.root for call in model.calls if call.name}
    assert text(roots["fetch"]) == "window" and roots["this.store.items.get"] is None


def test_abort_checks_are_the_walked_reads_of_aborted_on_the_signal():
    model = model_of("""async execute(input, { signal }) {
      if (signal?.aborted) return 1;
      if (other.aborted) return 2;
      const later = () => signal.aborted;
      class Probe { run() { return signal.aborted; } }
      items.forEach(() => { if (signal.aborted) return; });
    }""")
    assert sorted(text(check) for check in model.abort_checks) == ["signal.aborted", "signal?.aborted"]


def test_validation_found_whichever_check_comes_first():
    assert model_of('execute({ q }) { if (typeof q !== "string") return { error: "q" }; return q; }').validates_input()
    assert model_of('execute({ q }) { if (!q) return { error: "q" }; return q; }').validates_input()
    assert model_of("execute({ n }) { const m = n; if (m > 10) return { error: 1 }; return m; }").validates_input()
    assert model_of("execute({ q }) { validateQuery(q); return q; }").validates_input()
    assert not model_of("async execute({ q }) { const r = await fetch(q); if (!r.ok) return {}; "
                        "return await r.json(); }").validates_input()


def test_a_promise_executor_reject_is_found_whatever_its_name():
    model = model_of("""async execute(input, { signal }) {
      return new Promise((ok, fail) => { fail(new Error("no")); });
    }""")
    assert [reject.form for reject in model.rejects] == ["reject"]


def test_aborted_reads_are_told_by_their_whole_property_name():
    model = model_of("""async execute(input, { signal }) {
      if (signal.aborted /* checked */) return 1;
      if (signal.wasaborted || signal["aborted"]) return 2;
      if (signal
            .aborted) return 3;
    }""")
    assert [" ".join(text(check).split()) for check in model.abort_checks] == ["signal.aborted", "signal .aborted"]


def test_ancestors_are_the_parent_chain_up_to_execute_or_else_the_root():
    model = model_of("""async execute(input) {
      items.forEach((item) => { if (item) { work(item); } });
    }""", before="const outside = helper(1);")
    for call in model.calls:
        chain, current = [], call.node.parent
        while current is not None:
            chain.append(current)
            if current.id == model.function.id:
                break
            current = current.parent
        assert [node.id for node in model.ancestors(call.node)] == [node.id for node in chain]
    root_chain = model.ancestors(model.function)
    assert root_chain[-1].type == "program" and root_chain[0].id == model.function.parent.id
    outside = model.script.of_kind("call_expression")[0]
    assert text(outside) == "helper(1)"
    assert [node.type for node in model.ancestors(outside)] == ["variable_declarator", "lexical_declaration", "program"]

// The run index: filters, sort and pages over window.V3AST_INDEX (index-data.js), the state kept in the URL's
// hash (#outcome=UNRESOLVED&model=…) so a report can link to a filtered view and Back works.
(function () {
  "use strict";
  const data = window.V3AST_INDEX;
  const col = {};
  data.columns.forEach((name, i) => { col[name] = i; });
  const PAGE = 100;
  const form = document.getElementById("filters");
  const filters = Array.from(form.querySelectorAll("select")).map((s) => s.name).filter((n) => n in data.values);
  const derived = {  // filters a report links with that are parts of a column
    risk: (row) => data.values.cell[row[col.cell]].split("-")[0],
    source: (row) => data.values.cell[row[col.cell]].split("-")[1],
  };
  const sortKeys = {
    time: (row) => row[col.started], calls: (row) => row[col.calls], tokens: (row) => row[col.tokens],
    seconds: (row) => row[col.seconds], key: null,
  };

  function state() {
    const params = new URLSearchParams(location.hash.slice(1));
    const wanted = {};
    for (const [name, value] of params) {
      if (name in data.values || name in derived) wanted[name] = new Set(value.split(","));
    }
    return {wanted: wanted, sort: params.get("sort") || "time", order: params.get("order") || "desc",
            page: Math.max(0, parseInt(params.get("p") || "0", 10) || 0)};
  }

  function setState(changes) {
    const params = new URLSearchParams(location.hash.slice(1));
    for (const [name, value] of Object.entries(changes)) {
      if (value === "" || value === null) params.delete(name); else params.set(name, value);
    }
    if (!("p" in changes)) params.delete("p");
    location.hash = params.toString();
  }

  function text(row, name) {
    return name in derived ? derived[name](row) : data.values[name][row[col[name]]];
  }

  function render() {
    const started = performance.now();
    const s = state();
    const names = Object.keys(s.wanted);
    const counts = {};
    filters.forEach((name) => { counts[name] = new Map(); });
    const kept = [];
    for (const row of data.rows) {
      let failed = null, failures = 0;
      for (const name of names) {
        if (!s.wanted[name].has(text(row, name))) { failures += 1; failed = name; if (failures > 1) break; }
      }
      if (failures === 0) kept.push(row);
      if (failures > 1) continue;
      for (const name of filters) {  // a facet counts the rows the other filters keep
        if (failures === 1 && failed !== name) continue;
        const value = row[col[name]];
        counts[name].set(value, (counts[name].get(value) || 0) + 1);
      }
    }
    const key = sortKeys[s.sort];
    const sign = s.order === "asc" ? 1 : -1;
    if (key) kept.sort((a, b) => sign * (key(a) - key(b)) || (a[col.batch] - b[col.batch]));
    else if (s.order === "desc") kept.reverse();
    for (const name of filters) fillSelect(name, counts[name], s.wanted[name]);
    form.elements.sort.value = s.sort;
    form.elements.order.value = s.order;
    const pages = Math.max(1, Math.ceil(kept.length / PAGE));
    const page = Math.min(s.page, pages - 1);
    const active = names.map((name) => name + " = " + Array.from(s.wanted[name]).join(" or "));
    document.getElementById("summary").textContent =
      kept.length + " of " + data.rows.length + " runs" + (active.length ? " where " + active.join("; ") : "");
    document.getElementById("page").textContent = "page " + (page + 1) + " of " + pages;
    const body = document.querySelector("#runs tbody");
    body.replaceChildren(...kept.slice(page * PAGE, (page + 1) * PAGE).map(line));
    // for benchmarks/bench_viewer.py: this render, and the time since navigation began
    document.documentElement.dataset.renderMs = (performance.now() - started).toFixed(1);
    document.documentElement.dataset.readyMs = performance.now().toFixed(1);
  }

  function fillSelect(name, counts, wanted) {
    const select = form.elements[name];
    const options = [new Option("all (" + Array.from(counts.values()).reduce((a, b) => a + b, 0) + ")", "")];
    const values = data.values[name].map((value, i) => [value, counts.get(i) || 0])
      .filter(([value, count]) => count > 0 || (wanted && wanted.has(value)))
      .sort((a, b) => a[0].localeCompare(b[0]));
    for (const [value, count] of values) options.push(new Option((value || "(none)") + " (" + count + ")", value));
    select.replaceChildren(...options);
    select.value = wanted && wanted.size === 1 ? Array.from(wanted)[0] : "";
  }

  function cell(content, className) {
    const td = document.createElement("td");
    if (content instanceof Node) td.append(content); else td.textContent = content;
    if (className) td.className = className;
    return td;
  }

  function link(href, label, className) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = label;
    if (className) a.className = className;
    return a;
  }

  function line(row) {
    const tr = document.createElement("tr");
    const batch = text(row, "batch"), pair = text(row, "pair"), side = text(row, "side"), outcome = text(row, "outcome");
    const page = ["runs", batch, pair, side + "-" + row[col.run] + ".html"].map(encodeURIComponent).join("/");
    const started = row[col.started] < 0 ? "—" : new Date(row[col.started] * 1000).toISOString().slice(0, 16).replace("T", " ");
    const calibration = text(row, "calibration");
    tr.append(cell(started), cell(batch),
              cell(link(["pairs", batch, pair + ".html"].map(encodeURIComponent).join("/"), pair)),
              cell(text(row, "cell")), cell(side), cell(String(row[col.run]), "num"), cell(text(row, "model")),
              cell(text(row, "harness")), cell(link(page, outcome, "outcome o-" + outcome)), cell(text(row, "reason")),
              cell(calibration, "c-" + calibration), cell(String(row[col.calls]), "num"),
              cell(String(row[col.tokens]), "num"), cell(row[col.seconds] < 0 ? "—" : String(row[col.seconds]), "num"));
    return tr;
  }

  function adminScript() {
    const quote = (value) => /^[\w@%+=:,.\/-]+$/.test(value) ? value : "'" + value.replace(/'/g, "'\\''") + "'";
    const lines = ["# triage notes kept in this browser, as admit commands (read each before running it)"];
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key.startsWith("v3ast-triage/")) continue;
      const [, batch, pair] = key.split("/");
      const note = localStorage.getItem(key);
      if (note) lines.push("v3ast calibration admit " + quote(pair) + " --batch " + quote(batch) + " --justify " + quote(note));
    }
    return lines.join("\n") + "\n";
  }

  form.addEventListener("change", (event) => {
    const name = event.target.name;
    setState({[name]: event.target.value});
  });
  document.getElementById("clear").addEventListener("click", () => { location.hash = ""; });
  document.getElementById("notes").addEventListener("click", () => {
    const blob = new Blob([adminScript()], {type: "text/x-shellscript"});
    const a = link(URL.createObjectURL(blob), "");
    a.download = "triage-admit.sh";
    a.click();
  });
  document.querySelectorAll("nav.pages button").forEach((button) => button.addEventListener("click", () => {
    const page = state().page + parseInt(button.dataset.step, 10);
    if (page >= 0) setState({p: String(page)});
  }));
  window.addEventListener("hashchange", render);
  render();
})();

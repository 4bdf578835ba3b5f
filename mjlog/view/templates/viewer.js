// mjlog's replay viewer. It draws the data mjlog wrote into the page (#game-data):
// every value shown was computed by mjlog's replay; nothing here judges the game.
"use strict";
(function () {
  const G = JSON.parse(document.getElementById("game-data").textContent);
  const steps = G.steps, N = G.n, ONE_STEP = new Set(["c", "e", "who", "res", "key"]);
  const WINDS = ["East", "South", "West", "North"], WIND_KANJI = "東南西北";
  const $ = (id) => document.getElementById(id);
  const num = (x) => (x === null || x === undefined ? "" : Number(x).toLocaleString("en"));

  const { tileSVG, tilesHTML, codes, evidenceHTML, esc } = window.mjTiles;

  // ---- the table at a step: the round's first step with later values written over it
  const keyOf = [];
  steps.forEach((st, i) => keyOf.push(st.key ? i : (i ? keyOf[i - 1] : 0)));
  function stateAt(k) {
    const out = {};
    for (let i = keyOf[k]; i <= k; i++) for (const f in steps[i]) if (!ONE_STEP.has(f)) out[f] = steps[i][f];
    for (const f of ONE_STEP) if (f in steps[k]) out[f] = steps[k][f];
    return out;
  }
  const roundOf = [];
  { let r = -1; const firsts = new Set(G.rounds.map((x) => x[2]));
    steps.forEach((_, i) => { if (firsts.has(i)) r++; roundOf.push(r); }); }
  const findingsAt = {};
  G.findings.forEach((f, i) => (findingsAt[f.step] = findingsAt[f.step] || []).push(i));

  let cur = 0, view = -1, shownRound = null, hideResult = false;
  const HIDE = `<button id="hide-result" title="Show the table under the result (R)">show the table</button>`;
  const name = (p) => G.players[p] || "Seat " + (p + 1);

  function seatHTML(S, p, place) {
    const open = view < 0 || view === p;
    const dealer = S.dl === p, wind = WINDS[(p - S.dl + 4) % 4];
    const hand = (S["h" + p] || "").split("|");
    const handTiles = open ? tilesHTML(hand[0]) : codes(hand[0]).map(() => tileSVG("back")).join("");
    const drawn = hand[1] ? `<span class="drawn">${open ? tileSVG(hand[1]) : tileSVG("back")}</span>` : "";
    const melds = (S["m" + p] || []).map((m) => meldHTML(m)).join("");
    const river = (S["v" + p] || "").match(/..['*^]*/g) || [];
    const riverHTML = river.map((t) => {
      const cls = (t.includes("'") ? " tsumogiri" : "") + (t.includes("*") ? " sideways" : "") + (t.includes("^") ? " called" : "");
      return tileSVG(t.slice(0, 2), cls.trim());
    }).join("");
    const a = S["a" + p] || [], flags = findingsAt[cur] || [];
    const flagged = flags.some((i) => G.findings[i].seat === p);
    let info = "";
    if (open && a.length) {
      info = a[0] < 0 ? "complete hand" : a[0] === 0 ? "ready" : a[0] + " from ready";
      if (a[1]) info += `, waits <span class="evidence-tiles waits" data-waits="${a[1]}">${tilesHTML(a[1])}</span>`;
      if (a[2]) info += ` · <span class="furiten">${esc(a[2])}</span>`;
    }
    const side = (S["k" + p] || "") ? `<div class="row small" aria-label="set aside">${tilesHTML(S["k" + p])}</div>` : "";
    return `<div class="seat seat-${place}${S.who === p ? " acting" : ""}${flagged ? " flagged" : ""}" data-seat="${p}">
      <h3><span>${wind}${dealer ? " (dealer)" : ""}</span><span class="name">${esc(name(p))}</span>
      <span class="score" data-score="${(S.s || [])[p]}">${num((S.s || [])[p])}</span>${S["q" + p] ? '<span class="riichi-flag">riichi</span>' : ""}</h3>
      <div class="row hand" data-tiles="${hand.join("")}" data-open="${open ? 1 : 0}" aria-label="hand">${handTiles}${drawn}</div>
      <div class="melds small">${melds}</div>${side}
      <div class="river small" data-river="${esc(S["v" + p] || "")}" aria-label="discards">${riverHTML}</div>
      <div class="info-line">${info}</div></div>`;
  }
  function meldHTML(m) {
    const [kind, tiles, called, from, added] = m;
    const list = codes(tiles);
    if (kind === "closed_kan") return `<span class="meld" aria-label="closed kan">${list.map((c, i) => tileSVG(i === 0 || i === 3 ? "back" : c)).join("")}</span>`;
    const rest = list.slice(); const at = rest.indexOf(called); if (at >= 0) rest.splice(at, 1);
    if (added) { const j = rest.indexOf(added); if (j >= 0) rest.splice(j, 1); }
    const turned = tileSVG(called, "sideways") + (added ? tileSVG(added, "sideways") : "");
    // the called tile lies on the side it came from: left for the player before, middle across, right after
    const parts = from === 3 ? [turned, ...rest.map((c) => tileSVG(c))] : from === 2
      ? [tileSVG(rest[0]), turned, ...rest.slice(1).map((c) => tileSVG(c))] : [...rest.map((c) => tileSVG(c)), turned];
    return `<span class="meld" aria-label="${esc(kind.replace("_", " ") + " from " + ["", "the next player", "across", "the player before"][from])}">${parts.join("")}</span>`;
  }
  function centerHTML(S) {
    const label = G.rounds[roundOf[cur]] ? G.rounds[roundOf[cur]][1] : "Before the first round";
    return `<div id="center"><div class="round">${esc(label)}</div>
      <div class="counts">honba ${S.hb || 0} · riichi sticks ${S.ks || 0} · ${S.wall || 0} tiles left · move ${S.t || 0}</div>
      ${G.dora ? `<div>dora <span class="row small" style="justify-content:center">${tilesHTML(S.d || "")}</span></div>` : ""}
      ${S.ura ? `<div>ura <span class="row small" style="justify-content:center">${tilesHTML(S.ura)}</span></div>` : ""}</div>`;
  }
  function resultHTML(r) {
    if (!r) return "";
    if (hideResult) return `<button id="show-result" title="Show the result again (R)">show the result</button>`;
    const deltas = (d) => (d && d.length ? `<table><tr><th>player</th><th>change</th></tr>${d.map((x, p) =>
      `<tr><td>${esc(name(p))}</td><td class="${x > 0 ? "pos" : x < 0 ? "neg" : ""}">${x > 0 ? "+" : ""}${num(x)}</td></tr>`).join("")}</table>` : "");
    if (r.kind === "win") {
      const how = r.winner === r.from ? "tsumo" : "ron from " + esc(name(r.from));
      const yaku = r.yaku.map(([y, h]) => `<tr><td>${esc(y)}</td><td>${h}</td></tr>`).join("");
      return `<div id="result" data-kind="win">${HIDE}<h3>${esc(name(r.winner))} wins by ${how}</h3>
        <div class="row">${tilesHTML(r.hand)}<span class="drawn" style="margin-left:.6rem">${tileSVG(r.tile)}</span>
        ${r.melds.map((m) => `<span class="meld" style="margin-left:.6rem">${tilesHTML(m)}</span>`).join("")}</div>
        <p>dora ${tilesHTML(r.dora)} ${r.ura ? " · ura " + tilesHTML(r.ura) : ""}</p>
        <table><tr><th>${G.unit === "han" ? "yaku" : "pattern"}</th><th>${esc(G.unit)}</th></tr>${yaku}</table>
        <p><b>${r.han} ${esc(G.unit)}${G.unit === "han" ? " " + r.fu + " fu" : ""}${r.limit ? " · " + esc(r.limit) : ""} · ${num(r.points)} points</b></p>${deltas(r.deltas)}</div>`;
    }
    if (r.kind === "draw") {
      const hands = r.hands.map((h, p) => h ? `<p>${esc(name(p))} ready: <span class="row">${tilesHTML(h)}</span></p>` : "").join("");
      return `<div id="result" data-kind="draw">${HIDE}<h3>${esc(r.name[0].toUpperCase() + r.name.slice(1))}</h3>${hands || "<p>Nobody ready.</p>"}${deltas(r.deltas)}</div>`;
    }
    return `<div id="result" data-kind="end">${HIDE}<h3>Final standings</h3><table><tr><th>place</th><th>player</th><th>score</th><th>points</th></tr>${r.rows.map((row) =>
      `<tr><td>${row[0]}</td><td>${esc(row[2])}</td><td>${num(row[3])}</td><td>${row[4] === null ? "" : row[4]}</td></tr>`).join("")}</table></div>`;
  }

  // ---- drawing and moving
  function draw() {
    const S = stateAt(cur);
    const bottom = view >= 0 ? view : 0;
    const places = N === 3 ? ["bottom", "right", "left"] : ["bottom", "right", "top", "left"];
    let seats = "";
    for (let i = 0; i < N; i++) seats += seatHTML(S, (bottom + i) % N, places[i]);
    const table = $("table");
    table.innerHTML = seats + centerHTML(S) + resultHTML(S.res);
    Object.assign(table.dataset, { step: cur, turn: S.t || 0, round: G.labels[cur] || "" });
    $("caption").textContent = S.c || "";
    $("slider").value = cur;
    $("position").textContent = `move ${cur + 1} of ${steps.length}`;
    lists();
    const hash = `#step=${cur}` + (view >= 0 ? `&seat=${view}` : "");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }
  function lists() {
    const r = roundOf[cur];
    if (shownRound !== r) {
      shownRound = r;
      const first = r >= 0 ? G.rounds[r][2] : 0, last = r + 1 < G.rounds.length ? G.rounds[r + 1][2] : steps.length;
      let html = "";
      for (let i = first; i < last; i++) html += `<li data-step="${i}"${findingsAt[i] ? ' class="flagged"' : ""}>${esc(steps[i].c)}</li>`;
      $("moves").innerHTML = html;
    }
    for (const li of $("moves").children) li.classList.toggle("current", +li.dataset.step === cur);
    for (const li of $("rounds").children) li.classList.toggle("current", +li.dataset.round === r);
    for (const li of $("findings-box").querySelectorAll("li[data-finding]")) li.classList.toggle("current", +li.dataset.step === cur);
    const now = $("moves").querySelector(".current"), box = $("moves");
    if (now) box.scrollTop = now.offsetTop - box.clientHeight / 2;  // within the list only
  }
  function go(k) {
    const next = Math.max(0, Math.min(steps.length - 1, k));
    if (next !== cur) hideResult = false;
    cur = next; draw();
  }
  function toggleResult() { hideResult = !hideResult; draw(); }
  function seatMove(dir) {
    const seat = view >= 0 ? view : (stateAt(cur).who ?? 0);
    for (let i = cur + dir; i >= 0 && i < steps.length; i += dir) if (steps[i].who === seat && "t" in steps[i]) return go(i);
  }
  function roundMove(dir) {
    const r = roundOf[cur] + dir;
    if (r < 0) return go(0);
    if (r >= G.rounds.length) return go(steps.length - 1);
    go(G.rounds[r][2]);
  }
  const actions = { start: () => go(0), end: () => go(steps.length - 1), prev: () => go(cur - 1), next: () => go(cur + 1),
    "prev-turn": () => seatMove(-1), "next-turn": () => seatMove(1), "prev-round": () => roundMove(-1), "next-round": () => roundMove(1) };
  function setView(v) { view = v >= 0 && v < N ? v : -1; $("seat").value = String(view); draw(); }

  function findingsList() {
    // problems first; the notes (what was not judged or verified) folded below them
    const problems = G.findings.filter((f) => f.severity !== "info").length;
    $("finding-count").textContent = `(${problems}${problems < G.findings.length ? ", and " + (G.findings.length - problems) + " notes" : ""})`;
    const item = (f, i) => {
      const rows = [];
      if (f.rule) rows.push(["rule", `§${esc(f.rule)}: ${esc(f.citation)}`]);
      (f.evidence || []).forEach(([n, t]) => rows.push([esc(n), evidenceHTML(t)]));
      const value = (x) => (x === null ? "(none)" : esc(x));
      if (f.field) rows.push(["recorded", value(f.recorded)], ["computed", value(f.computed)]);
      if (f.consequence) rows.push(["consequence", esc(f.consequence)]);
      return `<li class="sev-${f.severity}" data-finding="${i}" data-step="${f.step}" tabindex="0">
        <span class="code">${esc(f.code)}</span> <span class="place">${esc(f.place)}</span>
        <div>${esc(f.message || (f.field ? f.field + " differs" : ""))}</div>
        ${rows.length ? `<dl>${rows.map(([a, b]) => `<dt>${a}</dt><dd>${b}</dd>`).join("")}</dl>` : ""}</li>`;
    };
    const listed = G.findings.map((f, i) => f.severity !== "info" ? item(f, i) : "").join("");
    const notes = G.findings.map((f, i) => f.severity === "info" ? item(f, i) : "").join("");
    $("findings").innerHTML = listed || "<li>None: the audit found no problem in this game.</li>";
    $("notes-list").innerHTML = notes;
    $("notes").hidden = !notes;
    $("notes").querySelector("summary").textContent = `Notes: what was not judged or verified (${G.findings.length - problems})`;
  }

  function init() {
    $("slider").max = steps.length - 1;
    $("rounds").innerHTML = G.rounds.map((r, i) => `<li data-round="${i}" data-step="${r[2]}">${esc(r[1])}</li>`).join("");
    findingsList();
    document.querySelectorAll("[data-go]").forEach((b) => b.addEventListener("click", () => actions[b.dataset.go]()));
    $("slider").addEventListener("input", (e) => go(+e.target.value));
    $("table").addEventListener("click", (e) => { if (e.target.closest("#hide-result, #show-result")) toggleResult(); });
    $("seat").addEventListener("change", (e) => setView(+e.target.value));
    for (const id of ["moves", "rounds"]) $(id).addEventListener("click", (e) => {
      const li = e.target.closest("li[data-step]"); if (li) go(+li.dataset.step);
    });
    // a finding opens on the table, its evidence in sight (R shows the result over it)
    const toFinding = (li) => { go(+li.dataset.step); if (steps[cur].res) { hideResult = true; draw(); } };
    $("findings-box").addEventListener("click", (e) => { const li = e.target.closest("li[data-step]"); if (li) toFinding(li); });
    $("findings-box").addEventListener("keydown", (e) => {
      const li = e.target.closest("li[data-step]"); if (li && e.key === "Enter") toFinding(li);
    });
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" && e.target.type !== "range" || e.target.tagName === "SELECT") return;
      const k = e.key;
      if (k === "ArrowRight") actions[e.shiftKey ? "next-turn" : "next"]();
      else if (k === "ArrowLeft") actions[e.shiftKey ? "prev-turn" : "prev"]();
      else if (k === "PageDown" || k === "ArrowDown") actions["next-round"]();
      else if (k === "PageUp" || k === "ArrowUp") actions["prev-round"]();
      else if (k === "Home") actions.start();
      else if (k === "End") actions.end();
      else if (/^[0-9]$/.test(k)) setView(+k - 1);
      else if (k === "r" || k === "R") toggleResult();
      else return;
      e.preventDefault();
    });
    window.addEventListener("hashchange", fromHash);
    fromHash();
  }
  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    const seat = h.has("seat") ? +h.get("seat") : -1;
    view = seat >= 0 && seat < N ? seat : -1;
    $("seat").value = String(view);
    const k = h.has("step") ? +h.get("step") : 0;
    go(Number.isFinite(k) ? k : 0);
  }
  init();
})();

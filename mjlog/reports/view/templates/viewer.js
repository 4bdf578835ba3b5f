// mjlog's replay viewer. It draws the data mjlog wrote into the page (#game-data):
// every value shown was computed by mjlog's replay; nothing here judges the game.
// A position is named one way everywhere: its round and the audit's turn ("E1-0 turn
// 12"); the address (#step=K) points at the same step.
"use strict";
(function () {
  const G = JSON.parse(document.getElementById("game-data").textContent);
  const SHARE = JSON.parse(document.getElementById("share-data").textContent || "null");
  const steps = G.steps, N = G.n, ONE_STEP = new Set(["c", "e", "who", "res", "key"]);
  const WINDS = ["East", "South", "West", "North"], WIND_KANJI = "東南西北";
  const $ = (id) => document.getElementById(id);
  let lang = G.lang || "en";
  const t = (text) => ((G.words || {})[lang] || {})[text] || text;
  // a phrase with fields ("{n} tiles left"), its fields filled in
  const tf = (key, fields) => t(key).replace(/\{(\w+)\}/g, (_, f) => (f in fields ? fields[f] : `{${f}}`));
  const num = (x) => (x === null || x === undefined ? "" : Number(x).toLocaleString("en"));
  // A win's points as its record states them; for a record that states none (Mortal's
  // mjai), what the winner received; else a dash.
  const gained = (res) => {
    const got = (res.deltas || [])[res.winner];
    return res.points ? num(res.points) : got > 0 ? num(got) : "–";
  };
  const caption = (k) => (lang !== "en" && G.captions && G.captions[lang] ? G.captions[lang][G.caption_at[k]] : steps[k].c) || "";
  const patterns = {};
  function phrase(text) {
    // a sentence the replay wrote in English, in the language chosen: as a whole, or
    // matched against the phrases with fields (each field itself a phrase)
    if (lang === "en" || !text) return text;
    const whole = t(text);
    if (whole !== text) return whole;
    if (!patterns[lang]) patterns[lang] = Object.keys(G.words[lang] || {}).filter((k) => k.includes("{")).map((k) => {
      const names = [...k.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const rx = new RegExp("^" + k.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("(.+?)") + "$");
      return [k, names, rx, k.replace(/\{\w+\}/g, "").length];
    }).sort((x, y) => y[3] - x[3]);  // the phrase with the most words of its own first
    for (const [k, names, rx] of patterns[lang]) {
      const m = rx.exec(text);
      if (m) return tf(k, Object.fromEntries(names.map((n, i) => [n, phrase(m[i + 1])])));
    }
    return text;
  }

  const { tileSVG, tilesHTML, codes, evidenceHTML, esc } = window.mjTiles;

  // ---- the table at a step: the round's first step with later values written over it
  const keyOf = [];
  steps.forEach((st, i) => keyOf.push(st.key ? i : (i ? keyOf[i - 1] : 0)));
  function stateAt(k) {
    const out = {};
    for (let i = keyOf[k]; i <= k; i++) {
      for (const f in steps[i]) {
        if (ONE_STEP.has(f)) continue;
        // a river that grew is written as what it gained ("v0+"): appended
        if (f.endsWith("+")) out[f.slice(0, -1)] = (out[f.slice(0, -1)] || "") + steps[i][f];
        else out[f] = steps[i][f];
      }
    }
    for (const f of ONE_STEP) if (f in steps[k]) out[f] = steps[k][f];
    return out;
  }
  const roundOf = [];
  { let r = -1; const firsts = new Set(G.rounds.map((x) => x[2]));
    steps.forEach((_, i) => { if (firsts.has(i)) r++; roundOf.push(r); }); }
  // each step's turn (the audit's), and whether it is a move (its turn is new)
  const turnOf = [], isMove = [];
  steps.forEach((_, i) => {
    const tn = stateAt(i).t || 0;
    turnOf.push(tn);
    isMove.push(i > 0 && roundOf[i] === roundOf[i - 1] && tn !== turnOf[i - 1]);
  });
  const findingsAt = {};
  G.findings.forEach((f, i) => (findingsAt[f.step] = findingsAt[f.step] || []).push(i));
  // what happened at a step, for the jumps: a win, a call, a riichi
  // an AI's review (G.review): each reviewed move's opinion at its step
  const R = G.review, reviewAt = {};
  if (R) R.moves.forEach((m, i) => (reviewAt[m[0]] = reviewAt[m[0]] || []).push(i));
  const aiDiffers = (k) => (reviewAt[k] || []).some((i) => !R.moves[i][1]);
  // mjlog's decision facts (#facts-data, packed: mjlog/reports/view/facts.py and page.py): each
  // discard's options, shanten and ukeire, the most accepting choice and the safety of each
  // tile against each riichi, at its discard's step; unpacked once the page is drawn
  let F = null;
  const factAt = {}, factOf = {};  // step -> decision: at its discard, and just before it
  async function unpackFacts() {
    const el = $("facts-data");
    if (!el) return null;
    if (typeof DecompressionStream === "undefined") return { error: "this browser cannot unpack the facts (no DecompressionStream)" };
    const bytes = Uint8Array.from(atob(el.textContent.trim()), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return JSON.parse(await new Response(stream).text());
  }
  function useFacts(data) {
    if (!data) return;
    F = { d: [], classes: [], reasons: [], deal_ins: {}, ...data };
    F.d.forEach((d, i) => { if (d[0] > 0) factAt[d[0] - 1] = i; });
    F.d.forEach((d, i) => { factAt[d[0]] = i; factOf[d[0]] = i; });
    marks.forEach((m, i) => { m.three = !!R && threeWay(i); m.loss = lost(i); });
    document.body.dataset.facts = F.error === undefined ? "ready" : "error";
    shownRound = null;
    draw();
  }
  const KIND = (k) => (k < 27 ? `${k % 9 + 1}${"mps"[(k / 9) | 0]}` : `${k - 26}z`);
  const kindOf = (c) => {
    const n = c && c[0] === "0" ? 5 : +(c || "")[0], s = "mpsz".indexOf((c || "")[1]);
    return !n || s < 0 || (s === 3 && n > 7) ? -1 : s * 9 + n - 1;
  };
  // the kinds (0–33) of a 34-bit mask (a number, or its hexadecimal text)
  const kindsIn = (m) => {
    const x = typeof m === "string" ? parseInt(m, 16) : m, out = [];
    for (let k = 0; k < 34; k++) if (Math.floor(x / 2 ** k) % 2) out.push(k);
    return out;
  };
  function fact(i) {
    // one decision written out (the encoding: mjlog/reports/view/facts.py)
    const d = F.d[i], held = kindsIn(d[4]);
    const options = d[5] === null ? null : d[5].split(" ").map((x, j) => {
      const forbidden = x.endsWith("!"), [a, m] = (forbidden ? x.slice(0, -1) : x).split(".");
      return { kind: held[j], shanten: parseInt(a[0], 36), count: a.length > 1 ? +a.slice(1) : null,
        ukeire: m === undefined ? null : kindsIn(m), forbidden };  // kinds left out: null
    });
    const not = {};
    for (const [f, r] of (d.length > 10 ? d[10] : 0) || []) not[f] = F.reasons[r];
    return { index: i, step: d[0], seat: d[1], taken: d[2], forced: !!(d[3] & 1), riichi: !!(d[3] & 2),
      tsumogiri: !!(d[3] & 4), counted: !!(d[3] & 8), options, best: d[6] === null ? null : kindsIn(d[6]),
      loss: d[7], threats: d.length > 8 ? d[8] : [], dealIn: d.length > 9 ? d[9] : null, not };
  }
  let factsOn = false, only = "";  // the facts layer; the move list's filter ("" every move)
  const lossOf = (i) => (i in factOf ? F.d[factOf[i]][7] : null);
  const lost = (i) => !!lossOf(i) && (lossOf(i)[0] > 0 || lossOf(i)[1] > 0);
  const threeWay = (i) => i in factOf && F.d[factOf[i]][6] !== null && (reviewAt[i] || []).some((j) => {
    // the player, the AI and mjlog's most accepting choice: three different discards
    const m = R.moves[j], best = kindsIn(F.d[factOf[i]][6]);
    if (m[1] || m[2][0] !== "discard" || m[3][0] !== "discard") return false;
    const p = kindOf(m[2][1]), a = kindOf(m[3][1]);
    return p >= 0 && a >= 0 && p !== a && !best.includes(p) && !best.includes(a);
  });
  const marks = steps.map((st, i) => {
    const keys = Object.keys(st);
    return { win: !!(st.res && st.res.kind === "win"),
      call: !st.key && keys.some((k) => /^m\d$/.test(k)),
      riichi: !st.key && keys.some((k) => /^q\d$/.test(k) && st[k]), differs: aiDiffers(i),
      three: false, loss: false };  // the last two once the facts are unpacked
  });

  let cur = 0, view = -1, shownRound = null, hideResult = false, timer = null;
  const name = (p) => G.players[p] || "Seat " + (p + 1);
  const place = (k) => `${G.labels[k] || t("Before the first round")} ${tf("turn {n}", { n: turnOf[k] })}`;

  function seatHTML(S, p, at) {
    const open = view < 0 || view === p;
    const dealer = S.dl === p, wind = (p - S.dl + N) % N;
    const hand = (S["h" + p] || "").split("|");
    const f = open && factsOn && F ? pending(p) : null, withFacts = f ? factHandHTML(hand[0], hand[1], f) : null;
    const handTiles = f ? withFacts[0] : open ? tilesHTML(hand[0]) : codes(hand[0]).map(() => tileSVG("back")).join("");
    const drawn = hand[1] ? `<span class="drawn">${f ? withFacts[1] : open ? tileSVG(hand[1]) : tileSVG("back")}</span>` : "";
    const melds = (S["m" + p] || []).map((m) => meldHTML(m)).join("");
    const river = (S["v" + p] || "").match(/..['*^]*/g) || [];
    const riverHTML = river.map((x) => {
      const cls = (x.includes("'") ? " tsumogiri" : "") + (x.includes("*") ? " sideways" : "") + (x.includes("^") ? " called" : "");
      return tileSVG(x.slice(0, 2), cls.trim());
    }).join("");
    const flagged = (findingsAt[cur] || []).some((i) => G.findings[i].seat === p);
    const aside = S["k" + p] ? `<span class="row aside-tiles" aria-label="set aside">${tilesHTML(S["k" + p])}</span>` : "";
    return `<div class="seat at-${at}${S.who === p ? " acting" : ""}${flagged ? " flagged" : ""}${dealer ? " dealer" : ""}" data-seat="${p}">
      <div class="tag"><div class="line"><span class="wind" title="${esc(t(WINDS[wind]))}${dealer ? " " + esc(t("(dealer)")) : ""}">${WIND_KANJI[wind]}</span><span class="score" data-score="${(S.s || [])[p]}">${num((S.s || [])[p])}</span>${S["q" + p] ? `<span class="riichi-flag" title="${esc(t("riichi"))}"></span>` : ""}</div>
      <div class="line name">${esc(name(p))}</div><div class="line info">${open ? infoHTML(S["a" + p] || []) : ""}</div></div>
      <div class="river" data-river="${esc(S["v" + p] || "")}" aria-label="discards">${riverHTML}</div>
      <div class="hand-row"><div class="row hand${f ? " with-facts" : ""}" data-tiles="${hand.join("")}" data-open="${open ? 1 : 0}"${f ? ` data-decision="${f.index}"` : ""} aria-label="hand">${handTiles}${drawn}</div>
      <div class="melds">${melds}</div>${aside}</div></div>`;
  }
  // ---- the facts layer: under each tile of the hand to act, its discard's ukeire and shanten
  const CLASS_WORDS = { genbutsu: "genbutsu", suji: "suji", kabe: "kabe", "one-chance": "one-chance",
    "honour-4": "honour, 4 visible", "honour-3": "honour, 3 visible", none: "no safety class" };
  const classWord = (c) => t(CLASS_WORDS[c] || c);
  function pending(p) {
    // the decision of seat p made at the next step (its hand of 3n + 2 tiles is shown now)
    const i = factAt[cur];
    return i !== undefined && F.d[i][1] === p && F.d[i][0] === cur + 1 ? fact(i) : null;
  }
  function thrown(f) {
    // the code of the tile thrown: the last tile of the seat's river at the discard
    const river = (stateAt(f.step)["v" + f.seat] || "").match(/..['*^]*/g) || [];
    return river.length ? river[river.length - 1].slice(0, 2) : KIND(f.taken);
  }
  const notComputed = (why) => `<span class="f-none" title="${esc(t("not computed") + ": " + phrase(why || ""))}">—</span>`;
  function factTileHTML(c, f, isTaken) {
    const k = kindOf(c), o = (f.options || []).find((x) => x.kind === k);
    const best = !!(o && f.best && f.best.includes(k));
    const why = f.not.options || f.not.counts || f.not.loss || "";
    const nums = !o ? notComputed(why || t("not computed"))
      : `<span class="f-n" data-count="${o.count === null ? "" : o.count}">${o.count === null ? notComputed(f.not.counts) : o.count}</span><span class="f-s" data-shanten="${o.shanten}">${o.shanten}</span>`;
    const safe = (f.threats || []).map(([q, cls]) => {
      const j = (f.options || []).findIndex((x) => x.kind === k), c2 = j >= 0 ? F.classes[+cls[j]] : "";
      return c2 ? `<i class="f-c c-${c2}" data-threat="${q}" data-class="${c2}" title="${esc(tf("safety against {name}", { name: name(q) }) + ": " + classWord(c2))}"></i>` : "";
    }).join("") || (f.threats === null ? notComputed(f.not.threats) : "");
    const tip = o ? `${KIND(k)}: ${o.shanten === 0 ? t("ready") : tf("{n} from ready", { n: o.shanten })} · ${o.count === null ? "—" : tf("ukeire {n} tiles", { n: o.count })} ${o.ukeire ? o.ukeire.map(KIND).join(" ") : "— (" + t(F.kinds || "not computed") + ")"}${o.forbidden ? " · " + t("kuikae forbids it") : ""}` : "";
    return `<span class="ft${isTaken ? " f-taken" : ""}${best ? " f-best" : ""}" data-kind="${k}" title="${esc(tip)}">${tileSVG(c)}<span class="f-nums">${nums}</span><span class="f-safe">${safe}</span></span>`;
  }
  function factHandHTML(hand, drawnTile, f) {
    // the concealed tiles and the drawn one with the facts, the tile thrown marked once:
    // the drawn tile when thrown as drawn (or found nowhere else), else its copy in hand
    const code = thrown(f), list = codes(hand);
    let at = list.indexOf(code);
    if (at < 0) at = list.findIndex((c) => kindOf(c) === f.taken);
    const drawnTaken = !!drawnTile && kindOf(drawnTile) === f.taken && (f.tsumogiri || at < 0);
    if (drawnTaken) at = -1;
    return [list.map((c, i) => factTileHTML(c, f, i === at)).join(""),
      drawnTile ? factTileHTML(drawnTile, f, drawnTaken) : ""];
  }
  function dealInHTML(k) {
    // at a win on a discard: how far from ready its discarder was, and the tile's class
    if (!F || !(k in F.deal_ins)) return "";
    const f = fact(F.deal_ins[k]), res = steps[k].res, di = f.dealIn || [null, []];
    const row = di[1].find((x) => x[0] === res.winner) || [res.winner, -1, 0];
    const ready = di[0] === null ? notComputed(f.not.options) : esc(di[0] === 0 ? t("the discarder was ready") : tf("the discarder was {n} from ready", { n: di[0] }));
    const cls = row[1] < 0 ? notComputed(f.not.threats || f.not.counts || f.not.options) : esc(tf("the tile was {cls} against {name}", { cls: classWord(F.classes[row[1]]), name: name(res.winner) }));
    return `<p class="deal-in" data-shanten="${di[0] === null ? "" : di[0]}" data-class="${row[1] < 0 ? "" : F.classes[row[1]]}">${esc(t("Deal-in"))}: ${ready} · ${cls}</p>`;
  }
  function factsPanel() {
    // the decision of this step in words, with the legend of the marks
    const box = $("facts");
    box.hidden = !factsOn;
    if (!factsOn) return;
    if (!F) { box.textContent = "…"; return; }
    // a decision of a seat whose hand is hidden (another seat's view) is not told
    const i = factAt[cur], f = i === undefined || (view >= 0 && view !== F.d[i][1]) ? null : fact(i);
    const legend = `<p class="f-legend">${esc(t("Under each tile: the tiles that lower the shanten after discarding it (upper) and the shanten it leaves (lower); a frame marks the tile thrown, a dot the most accepting."))} ${
      F.classes.map((c) => `<i class="f-c c-${c}"></i> ${esc(classWord(c))}`).join(" ")}</p>`;
    if (F.error !== undefined || !f) { box.innerHTML = (F.error !== undefined ? notComputed(F.error) + " " : "") + legend + dealInHTML(cur); return; }
    const taken = (f.options || []).find((o) => o.kind === f.taken);
    const best = f.best ? f.best.map(KIND).join(" ") : notComputed(f.not.counts || f.not.options);
    const loss = f.forced ? esc(t("forced: the hand is in riichi")) : !f.loss ? notComputed(f.not.loss || f.not.counts || f.not.options)
      : f.loss[0] || f.loss[1] ? esc(tf("loss: {s} shanten and {n} tiles", { s: f.loss[0], n: f.loss[1] })) : esc(t("no loss"));
    box.innerHTML = `<p class="f-decision" data-decision="${f.index}"><b>${esc(tf("{name}'s decision", { name: name(f.seat) }))}</b>: ${esc(t("discarded"))} ${tileSVG(thrown(f))}
      ${taken ? esc(taken.shanten === 0 ? t("ready") : tf("{n} from ready", { n: taken.shanten })) + " · " + (taken.count === null ? notComputed(f.not.counts) : esc(tf("ukeire {n} tiles", { n: taken.count }))) : notComputed(f.not.options)}
      · ${esc(t("most accepting"))} <span class="f-best-kinds">${best}</span> · ${loss}</p>${legend}${dealInHTML(cur)}`;
  }
  function infoHTML(a) {
    if (!a.length) return "";
    let info = a[0] < 0 ? t("complete hand") : a[0] === 0 ? t("ready") : tf("{n} from ready", { n: a[0] });
    if (a[1]) info += ` <span class="waits" data-waits="${a[1]}">${esc(t("waits"))} ${esc(a[1])}</span>`;
    if (a[2]) info += ` <span class="furiten">${esc(phrase(a[2]))}</span>`;
    return info;
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
  function roundName(r) {
    if (r < 0 || !G.rounds[r]) return t("Before the first round");
    return lang !== "en" && G.round_names && G.round_names[lang] ? G.round_names[lang][r] : G.rounds[r][1];
  }
  function centerHTML(S) {
    return `<div id="center"><div class="middle"><div class="round">${esc(roundName(roundOf[cur]))}</div>
      <div class="counts">${esc(tf("honba {n}", { n: S.hb || 0 }))} · ${esc(tf("riichi sticks {n}", { n: S.ks || 0 }))}</div>
      <div class="left">${esc(tf("{n} tiles left", { n: S.wall || 0 }))}</div>
      ${G.dora ? `<div class="row dora" aria-label="${esc(t("dora"))}">${tilesHTML(S.d || "")}</div>` : ""}
      ${S.ura ? `<div class="row ura" aria-label="${esc(t("ura"))}">${tilesHTML(S.ura)}</div>` : ""}</div></div>`;
  }
  function resultHTML(r) {
    if (!r) return "";
    const HIDE = `<button id="hide-result" title="${esc(t("Show the table under the result (R)"))}">${esc(t("show the table"))}</button>`;
    if (hideResult) return `<button id="show-result" title="${esc(t("Show the result again (R)"))}">${esc(t("show the result"))}</button>`;
    const deltas = (d) => (d && d.length ? `<table><tr><th>${esc(t("player"))}</th><th>${esc(t("change"))}</th></tr>${d.map((x, p) =>
      `<tr><td>${esc(name(p))}</td><td class="${x > 0 ? "pos" : x < 0 ? "neg" : ""}">${x > 0 ? "+" : ""}${num(x)}</td></tr>`).join("")}</table>` : "");
    if (r.kind === "win") {

      const yaku = r.yaku.map(([y, h]) => `<tr><td class="yaku">${esc(t(y))}</td><td>${h}</td></tr>`).join("");
      const unit = esc(t(G.unit));
      const who = r.winner === r.from ? tf("{winner} wins by tsumo", { winner: name(r.winner) })
        : tf("{winner} wins by ron from {from}", { winner: name(r.winner), from: name(r.from) });
      return `<div id="result" data-kind="win">${HIDE}<h3>${esc(who)}</h3>
        <div class="row">${tilesHTML(r.hand)}<span class="drawn" style="margin-left:.6rem">${tileSVG(r.tile)}</span>
        ${r.melds.map((m) => `<span class="meld" style="margin-left:.6rem">${tilesHTML(m)}</span>`).join("")}</div>
        <p>${esc(t("dora"))} ${tilesHTML(r.dora)} ${r.ura ? " · " + esc(t("ura")) + " " + tilesHTML(r.ura) : ""}</p>
        ${dealInHTML(cur)}<table><tr><th>${esc(t(G.unit === "han" ? "yaku" : "pattern"))}</th><th>${unit}</th></tr>${yaku}</table>
        <p class="value"><b>${esc(G.unit === "han" ? tf("{han} han {fu} fu", { han: r.han, fu: r.fu }) : tf("{han} 台", { han: r.han }))}${r.limit ? " · " + esc(t(r.limit)) : ""}${r.points ? " · " + esc(tf("{n} points", { n: num(r.points) })) : ""}</b></p>${deltas(r.deltas)}</div>`;
    }
    if (r.kind === "draw") {
      const hands = r.hands.map((h, p) => h ? `<p>${esc(tf("{name} ready:", { name: name(p) }))} <span class="row">${tilesHTML(h)}</span></p>` : "").join("");
      const title = t(r.name);
      return `<div id="result" data-kind="draw">${HIDE}<h3>${esc(title[0].toUpperCase() + title.slice(1))}</h3>${hands || `<p>${esc(t("Nobody ready."))}</p>`}${deltas(r.deltas)}</div>`;
    }
    return `<div id="result" data-kind="end">${HIDE}<h3>${esc(t("Final standings"))}</h3><table><tr><th>${esc(t("place"))}</th><th>${esc(t("player"))}</th><th>${esc(t("score"))}</th><th>${esc(t("points"))}</th></tr>${r.rows.map((row) =>
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
    table.innerHTML = centerHTML(S) + seats + resultHTML(S.res);
    Object.assign(table.dataset, { step: cur, turn: turnOf[cur], round: G.labels[cur] || "" });
    $("caption").textContent = caption(cur);
    if (R) reviewPanel();
    if ($("facts")) factsPanel();
    $("slider").value = cur;
    $("position").textContent = place(cur);
    lists();
    share();
    const hash = `#step=${cur}` + (view >= 0 ? `&seat=${view}` : "") + (factsOn ? "&facts=1" : "");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }
  const LIST_TITLES = { "": "Moves of this round", differs: "Moves the AI disagrees with",
    three: "Moves where the player, the AI and the most accepting choice all differ",
    loss: "Discards that were not the most accepting" };
  const FILTERS = { differs: "only-differs", three: "only-three", loss: "only-loss" };
  function setFilter(kind, on) {
    // one filter at a time: its box checked, the others cleared
    only = on ? kind : "";
    for (const [k, id] of Object.entries(FILTERS)) if ($(id)) $(id).checked = k === only;
    shownRound = null; draw();
  }
  function setFacts(on, redraw = true) {
    factsOn = !!on;
    if ($("facts-toggle")) $("facts-toggle").setAttribute("aria-pressed", String(factsOn));
    if (redraw) draw();
  }
  function lists() {
    const r = roundOf[cur];
    if (shownRound !== (only || r)) {
      shownRound = only || r;
      const first = r >= 0 ? G.rounds[r][2] : 0, last = r + 1 < G.rounds.length ? G.rounds[r + 1][2] : steps.length;
      let html = "";
      for (let i = only ? 0 : first; i < (only ? steps.length : last); i++) {
        if (only && !marks[i][only]) continue;
        const cls = (findingsAt[i] ? " flagged" : "") + (isMove[i] ? "" : " aside") + (marks[i].differs ? " ai-differs" : "");
        const where = only ? `<span class="where">${esc(G.labels[i] || "")}</span> ` : "";
        const mark = marks[i].differs ? ` <span class="ai-mark" title="${esc(t("The AI would have chosen otherwise"))}">≠</span>` : "";
        const loss = only === "loss" ? ` <span class="f-lost">${esc(tf("loss: {s} shanten and {n} tiles", { s: lossOf(i)[0], n: lossOf(i)[1] }))}</span>` : "";
        html += `<li data-step="${i}" data-turn="${turnOf[i]}" class="${cls.trim()}"><span class="n">${turnOf[i]}</span>${where}${esc(caption(i))}${mark}${loss}</li>`;
      }
      $("moves").innerHTML = html;
      $("moves-title").textContent = t(LIST_TITLES[only]);
    }
    for (const li of $("moves").children) li.classList.toggle("current", +li.dataset.step === cur);
    for (const li of $("rounds").children) li.classList.toggle("current", +li.dataset.round === r);
    for (const li of $("findings-box").querySelectorAll("li[data-finding]")) li.classList.toggle("current", +li.dataset.step === cur);
    const now = $("moves").querySelector(".current"), box = $("moves");
    if (now) box.scrollTop = now.offsetTop - box.clientHeight / 2;  // within the list only
  }
  // ---- the AI's review beside the move: the reviewer's opinion, marked as its own
  const pct = (x) => (x * 100).toFixed(x >= 0.995 || x < 0.0005 ? 0 : 1) + "%";
  function actionHTML(a) {
    return `<span class="action" data-action="${esc(a[0] + " " + a[1])}">${esc(t(a[0]))}${a[1] ? " " + `<span class="row evidence-tiles">${tilesHTML(a[1])}</span>` : ""}</span>`;
  }
  function reviewHead() {
    const by = [R.model ? tf("model {m}", { m: R.model }) : "", R.version ? tf("mjai-reviewer {v}", { v: R.version }) : ""].filter(Boolean).join(" · ");
    const notes = R.notes.length ? `<details class="rv-notes"><summary>${esc(tf("Parts of the review that do not fit this game ({n})", { n: R.notes.length }))}</summary><ul>${R.notes.map((n) => `<li>${esc(n)}</li>`).join("")}</ul></details>` : "";
    return `<h2>${esc(tf("{engine}'s review", { engine: R.engine || "AI" }))} <span class="by">${esc(by)}</span></h2>
      <p class="rv-what">${esc(tf("The AI's opinion of {name}'s decisions, not mjlog's: its choice and its probabilities and Q-values.", { name: name(R.player) }))}</p>${notes}`;
  }
  function choiceRows(m) {
    // the options best first: the first is the AI's choice; the move played at its rank
    return m[4].map((c, i) => {
      const cls = (i === m[6] ? " played" : "") + (i === 0 ? " ai" : "");
      return `<tr class="${cls.trim()}"><td>${actionHTML(c[0])}</td><td class="num" data-prob="${c[2]}"><span class="bar" style="width:${Math.round(c[2] * 100)}%"></span><span class="v">${pct(c[2])}</span></td><td class="num" data-q="${c[1]}">${c[1].toFixed(2)}</td></tr>`;
    }).join("");
  }
  function reviewMove(i) {
    const m = R.moves[i];
    const verdict = m[1] ? `<span class="rv-badge agrees">${esc(t("same choice"))}</span>` : `<span class="rv-badge differs">≠ ${esc(t("the AI differs"))}</span>`
      + (m[6] > 0 ? ` <span class="rv-rank">${esc(tf("the move played is the AI's option {n}", { n: m[6] + 1 }))}</span>` : "");
    return `<div class="rv-move${m[1] ? "" : " differs"}" data-move="${i}"><p><b>${esc(name(R.player))}</b> ${actionHTML(m[2])} · <b>${esc(R.engine || "AI")}</b> ${actionHTML(m[3])} ${verdict}</p>
      <table class="rv-choices"><tr><th>${esc(t("the AI's options"))}</th><th>${esc(t("probability"))}</th><th>${esc(t("Q-value"))}</th></tr>${choiceRows(m)}</table></div>`;
  }
  function reviewPanel() {
    const here = reviewAt[cur] || [];
    $("review").innerHTML = reviewHead() + (here.length ? here.map(reviewMove).join("")
      : `<p class="rv-none">${esc(t("No decision of this move was reviewed."))}</p>`);
    $("review").dataset.moves = here.join(",");
  }
  function share() {
    if (!SHARE || !$("share-text")) return;
    const r = Math.max(0, roundOf[cur]);
    $("share-text").value = SHARE[r] || "";
  }
  function go(k) {
    const next = Math.max(0, Math.min(steps.length - 1, k));
    if (next !== cur) hideResult = false;
    cur = next; draw();
  }
  function toggleResult() { hideResult = !hideResult; draw(); }
  function seatMove(dir) {
    const seat = view >= 0 ? view : (stateAt(cur).who ?? 0);
    for (let i = cur + dir; i >= 0 && i < steps.length; i += dir) if (steps[i].who === seat && isMove[i]) return go(i);
  }
  function markMove(kind, dir) {
    for (let i = cur + dir; i >= 0 && i < steps.length; i += dir) if (marks[i][kind]) return go(i);
  }
  function roundMove(dir) {
    const r = roundOf[cur] + dir;
    if (r < 0) return go(0);
    if (r >= G.rounds.length) return go(steps.length - 1);
    go(G.rounds[r][2]);
  }
  function play() {
    if (timer) { clearInterval(timer); timer = null; $("play").textContent = "▶"; return; }
    $("play").textContent = "❚❚";
    timer = setInterval(() => { if (cur >= steps.length - 1) play(); else go(cur + 1); }, +$("speed").value);
  }
  const actions = { start: () => go(0), end: () => go(steps.length - 1), prev: () => go(cur - 1), next: () => go(cur + 1),
    "prev-turn": () => seatMove(-1), "next-turn": () => seatMove(1), "prev-round": () => roundMove(-1), "next-round": () => roundMove(1),
    "prev-win": () => markMove("win", -1), "next-win": () => markMove("win", 1), "prev-call": () => markMove("call", -1),
    "next-call": () => markMove("call", 1), "prev-riichi": () => markMove("riichi", -1), "next-riichi": () => markMove("riichi", 1),
    "prev-differs": () => markMove("differs", -1), "next-differs": () => markMove("differs", 1), play };
  function setView(v) { view = v >= 0 && v < N ? v : -1; $("seat").value = String(view); draw(); }

  function roundResult(r) {
    // each round's result in words, from its result screen
    const first = G.rounds[r][2], last = r + 1 < G.rounds.length ? G.rounds[r + 1][2] : steps.length;
    const parts = [];
    for (let i = first; i < last; i++) {
      const res = steps[i].res;
      if (!res || res.kind === "end") continue;
      if (res.kind === "draw") parts.push(t(res.name));
      else if (res.winner === res.from) parts.push(tf("{winner} tsumo {n}", { winner: name(res.winner), n: gained(res) }));
      else parts.push(tf("{winner} ron {n} from {from}", { winner: name(res.winner), n: gained(res), from: name(res.from) }));
    }
    return parts.join("; ");
  }
  function findingsList() {
    // problems first; the notes (what was not judged or verified) folded below them
    const problems = G.findings.filter((f) => f.severity !== "info").length;
    $("finding-count").textContent = problems < G.findings.length ? tf("({n}, and {k} notes)", { n: problems, k: G.findings.length - problems }) : tf("({n})", { n: problems });
    const item = (f, i) => {
      const rows = [];
      if (f.rule) rows.push([esc(t("rule")), `§${esc(f.rule)}: ${esc(f.citation)}`]);
      (f.evidence || []).forEach(([n, x]) => rows.push([esc(t(n)), evidenceHTML(x)]));
      const value = (x) => (x === null ? esc(t("(none)")) : esc(x));
      if (f.field) rows.push([esc(t("recorded")), value(f.recorded)], [esc(t("computed")), value(f.computed)]);
      if (f.consequence) rows.push([esc(t("consequence")), esc(f.consequence)]);
      return `<li class="sev-${f.severity}" data-finding="${i}" data-step="${f.step}" tabindex="0">
        <span class="code">${esc(f.code)}</span> <span class="place">${esc(f.places && lang !== "en" ? f.places[lang] : f.place)}</span>
        ${lang !== "en" && f.title ? `<div class="title">${esc(t(f.title))}</div>` : ""}
        <div>${esc(f.message || (f.field ? tf("{field} differs", { field: f.field }) : ""))}</div>
        ${rows.length ? `<dl>${rows.map(([a, b]) => `<dt>${a}</dt><dd>${b}</dd>`).join("")}</dl>` : ""}</li>`;
    };
    const listed = G.findings.map((f, i) => f.severity !== "info" ? item(f, i) : "").join("");
    const notes = G.findings.map((f, i) => f.severity === "info" ? item(f, i) : "").join("");
    $("findings").innerHTML = listed || `<li>${esc(t("None: the audit found no problem in this game."))}</li>`;
    $("notes-list").innerHTML = notes;
    $("notes").hidden = !notes;
    $("notes").querySelector("summary").textContent = tf("Notes: what was not judged or verified ({n})", { n: G.findings.length - problems });
  }
  function words() {
    // the page's fixed words in the language chosen
    document.documentElement.lang = lang;
    window.mjTiles.setWords(tf);
    for (const el of document.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
    for (const el of document.querySelectorAll("[data-title]")) el.title = t(el.dataset.title);
    $("rounds").innerHTML = G.rounds.map((r, i) => {
      const result = roundResult(i);
      return `<li data-round="${i}" data-step="${r[2]}">${esc(roundName(i))}${result ? ` <span class="result">${esc(result)}</span>` : ""}</li>`;
    }).join("");
    findingsList();
    shownRound = null;
  }

  function init() {
    $("slider").max = steps.length - 1;
    $("lang").value = lang;
    $("lang").addEventListener("change", (e) => { lang = e.target.value; words(); draw(); });
    words();
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
    if ($("copy")) $("copy").addEventListener("click", copyRound);
    for (const [k, id] of Object.entries(FILTERS)) if ($(id)) $(id).addEventListener("change", (e) => setFilter(k, e.target.checked));
    if ($("facts-toggle")) $("facts-toggle").addEventListener("click", () => setFacts(!factsOn));
    document.addEventListener("keydown", keys);
    window.addEventListener("hashchange", fromHash);
    fromHash();
    unpackFacts().then(useFacts, (e) => useFacts({ error: "the facts could not be unpacked: " + e }));
  }
  function copyRound() {
    const box = $("share-text");
    box.select();
    const done = () => { $("copied").textContent = t("copied"); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(box.value).then(done, () => { document.execCommand("copy"); done(); });
    else { document.execCommand("copy"); done(); }
  }
  function keys(e) {
    if (e.target.tagName === "INPUT" && e.target.type !== "range" || e.target.tagName === "SELECT" || e.target.tagName === "TEXTAREA") return;
    const k = e.key, back = e.shiftKey ? "prev-" : "next-";
    if (k === "ArrowRight") actions[e.shiftKey ? "next-turn" : "next"]();
    else if (k === "ArrowLeft") actions[e.shiftKey ? "prev-turn" : "prev"]();
    else if (k === "PageDown" || k === "ArrowDown") actions["next-round"]();
    else if (k === "PageUp" || k === "ArrowUp") actions["prev-round"]();
    else if (k === "Home") actions.start();
    else if (k === "End") actions.end();
    else if (/^[0-9]$/.test(k)) setView(+k - 1);
    else if (k === "r" || k === "R") toggleResult();
    else if (k === "w" || k === "W") actions[back + "win"]();
    else if (k === "c" || k === "C") actions[back + "call"]();
    else if (k === "i" || k === "I") actions[back + "riichi"]();
    else if ((k === "d" || k === "D") && R) actions[back + "differs"]();
    else if ((k === "f" || k === "F") && $("facts-toggle")) setFacts(!factsOn);
    else if (k === " ") play();
    else return;
    e.preventDefault();
  }
  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    const seat = h.has("seat") ? +h.get("seat") : -1;
    view = seat >= 0 && seat < N ? seat : -1;
    $("seat").value = String(view);
    if ($("facts-toggle")) setFacts(h.get("facts") === "1", false);
    // no address: the deal of the first round, with the real starting scores
    const k = h.has("step") ? +h.get("step") : (G.rounds.length ? G.rounds[0][2] : 0);
    go(Number.isFinite(k) ? k : 0);
  }
  init();
})();

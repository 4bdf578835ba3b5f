// mjlog's tiles: our own drawings, one SVG per two-character code (5m, 0p a red five, 1z
// east, 1f a flower, ?? a tile nobody wrote down, back a face-down tile), each with a text
// label for screen readers. Characters carry their numeral over 萬, dots are drawn as
// circles and bamboo as sticks, in the arrangements of real tiles; a red five is drawn in
// red and marked. Shared by the replay viewer and the referee's report.
"use strict";
window.mjTiles = (function () {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const SUIT = { m: "characters", p: "dots", s: "bamboo" };
  const HONOR = [["東", "east wind", "#1b1b1b"], ["南", "south wind", "#1b1b1b"], ["西", "west wind", "#1b1b1b"],
    ["北", "north wind", "#1b1b1b"], ["", "white dragon", "#1d4ed8"], ["發", "green dragon", "#15803d"], ["中", "red dragon", "#b91c1c"]];
  const NUMERAL = "一二三四伍六七八九";
  const FLOWER = "春夏秋冬梅蘭菊竹";
  const RED = "#c81e1e", BLUE = "#1d4ed8", GREEN = "#15803d";
  const FONT = `font-family="IPAGothic, 'Noto Sans CJK JP', 'Noto Sans CJK SC', sans-serif"`;
  // where the pips of dots and the sticks of bamboo sit, by number (x, y in a 30×40 face)
  const PIPS = {
    1: [[15, 20]], 2: [[15, 11], [15, 29]], 3: [[8, 9], [15, 20], [22, 31]],
    4: [[9, 12], [21, 12], [9, 28], [21, 28]], 5: [[9, 10], [21, 10], [15, 20], [9, 30], [21, 30]],
    6: [[9, 8], [21, 8], [9, 21], [21, 21], [9, 32], [21, 32]],
    7: [[7, 6], [15, 10], [23, 14], [9, 24], [21, 24], [9, 33], [21, 33]],
    8: [[9, 6], [21, 6], [9, 15], [21, 15], [9, 25], [21, 25], [9, 34], [21, 34]],
    9: [[7, 8], [15, 8], [23, 8], [7, 20], [15, 20], [23, 20], [7, 32], [15, 32], [23, 32]],
  };
  const STICKS = {
    2: [[15, 11], [15, 29]], 3: [[15, 11], [9, 29], [21, 29]], 4: [[9, 11], [21, 11], [9, 29], [21, 29]],
    5: [[8, 11], [22, 11], [15, 20], [8, 29], [22, 29]], 6: [[7, 11], [15, 11], [23, 11], [7, 29], [15, 29], [23, 29]],
    7: [[15, 7], [7, 20], [15, 20], [23, 20], [7, 33], [15, 33], [23, 33]],
    8: [[6, 11], [12, 11], [18, 11], [24, 11], [6, 29], [12, 29], [18, 29], [24, 29]],
    9: [[7, 7], [15, 7], [23, 7], [7, 20], [15, 20], [23, 20], [7, 33], [15, 33], [23, 33]],
  };
  let cache = {};
  // the labels' words: English unless a page sets its language (setWords)
  let T = (text, fields) => text.replace(/\{(\w+)\}/g, (_, f) => fields[f]);
  function setWords(translate) { T = translate; cache = {}; }
  function label(c) {
    if (c === "??") return T("a tile not written down", {});
    if (c === "back") return T("a face-down tile", {});
    const d = +c[0], s = c[1];
    if (s === "z") return HONOR[d - 1] ? T(HONOR[d - 1][1], {}) : c;
    if (s === "f") return T("flower {name}", { name: FLOWER[d - 1] });
    const suit = T(SUIT[s], {});
    return d === 0 ? T("red 5 of {suit}", { suit }) : T("{n} of {suit}", { n: d, suit });
  }
  const text = (t, col, x, y, size) => `<text x="${x}" y="${y}" font-size="${size}" text-anchor="middle" fill="${col}" font-weight="700" ${FONT}>${t}</text>`;
  function dots(n, red) {
    const r = { 1: 8.5, 2: 6, 3: 4.8, 4: 5, 5: 4.6, 6: 4.4 }[n] || 3.8;
    return PIPS[n].map(([x, y], i) => {
      const col = red ? RED : n === 1 || (n === 5 && i === 2) || (n >= 6 && n <= 7 && i >= (n === 6 ? 2 : 3)) ? RED : n % 2 ? BLUE : GREEN;
      return `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${col}" stroke-width="1.8"/><circle cx="${x}" cy="${y}" r="${r * 0.35}" fill="${col}"/>`;
    }).join("");
  }
  function bamboo(n, red) {
    if (n === 1) {  // the bird of the one of bamboo, drawn simply
      const col = red ? RED : GREEN;
      return `<ellipse cx="15" cy="22" rx="7" ry="9" fill="${col}"/><circle cx="15" cy="11" r="4" fill="${col}"/><path d="M15 8 l4 -3 l-1 5 z" fill="${RED}"/><path d="M10 30 l-4 7 M15 31 l0 7 M20 30 l4 7" stroke="${col}" stroke-width="2"/>`;
    }
    return STICKS[n].map(([x, y], i) => {
      const col = red || (n === 5 && i === 2) || (n === 7 && i === 0) || (n === 9 && i % 3 === 1) ? RED : GREEN;
      return `<rect x="${x - 2}" y="${y - 6}" width="4" height="12" rx="1.8" fill="${col}"/><line x1="${x - 2}" y1="${y}" x2="${x + 2}" y2="${y}" stroke="#fbfaf5" stroke-width=".8"/>`;
    }).join("");
  }
  function face(c) {
    const d = +c[0], s = c[1];
    if (c === "??") return text("?", "#6b7280", 15, 27, 20);
    if (s === "z") {
      if (d === 5) return `<rect x="7" y="8" width="16" height="24" rx="2" fill="none" stroke="${BLUE}" stroke-width="2.5"/>`;
      const h = HONOR[d - 1] || ["?", "", "#000"];
      return text(h[0], h[2], 15, 28, 19);
    }
    if (s === "f") return text(FLOWER[d - 1] || "?", "#7e22ce", 15, 26, 16) + `<text x="25" y="37" font-size="8" text-anchor="end" fill="#7e22ce">${d}</text>`;
    const red = d === 0, n = red ? 5 : d;
    const mark = red ? `<circle cx="26" cy="5" r="2.4" fill="${RED}"/>` : "";
    if (s === "m") return text(NUMERAL[n - 1], red ? RED : "#1b1b1b", 15, 17, 13) + text("萬", RED, 15, 35, 14) + mark;
    return (s === "p" ? dots(n, red) : bamboo(n, red)) + mark;
  }
  function tileSVG(c, extra) {
    const key = c + "|" + (extra || "");
    if (cache[key]) return cache[key];
    const back = c === "back";
    const body = back
      ? `<rect x="1" y="1" width="28" height="38" rx="4" fill="#c2410c" stroke="#7c2d12"/><rect x="5" y="5" width="20" height="30" rx="3" fill="none" stroke="#fed7aa" stroke-width="1.2"/>`
      : `<rect x="1" y="1" width="28" height="38" rx="4" fill="#fbfaf5" stroke="#9ca3af"/>` + face(c);
    const l = esc(label(c)), side = (extra || "").includes("sideways");
    const turned = esc(T("{tile}, turned", { tile: label(c) }));
    // a tile turned on its side (a called tile, a riichi declaration) is drawn turned, in a wider box
    const svg = side ? `<svg viewBox="0 0 40 30" role="img" aria-label="${turned}"><title>${turned}</title><g transform="translate(0 30) rotate(-90)">${body}</g></svg>`
      : `<svg viewBox="0 0 30 40" role="img" aria-label="${l}"><title>${l}</title>${body}</svg>`;
    return (cache[key] = `<span class="tile ${extra || ""}" data-code="${c}">${svg}</span>`);
  }
  const codes = (s) => (s ? s.match(/../g) : []);
  const tilesHTML = (s, extra) => codes(s).map((c) => tileSVG(c, extra)).join("");

  function evidenceHTML(text) {
    // runs of mpsz tiles (123m055p1z) are drawn as tiles; the rest stays text
    return esc(text).replace(/\b((?:[0-9]+[mpsz])+)\b/g, (run) => {
      const out = []; let digits = "";
      for (const ch of run) { if (/[0-9]/.test(ch)) digits += ch; else { for (const d of digits) out.push(d + ch); digits = ""; } }
      return `<span class="evidence-tiles" title="${run}">${out.map((c) => tileSVG(c)).join("")}</span>`;
    });
  }
  return { tileSVG, tilesHTML, codes, evidenceHTML, esc, setWords };
})();

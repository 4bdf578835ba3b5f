// mjlog's tiles: our own drawings, one SVG per two-character code (5m, 0p a red five, 1z
// east, 1f a flower, ?? a tile nobody wrote down, back a face-down tile), each with a text
// label for screen readers. Shared by the replay viewer and the referee's report.
"use strict";
window.mjTiles = (function () {
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const SUIT = { m: ["萬", "characters", "#b91c1c"], p: ["筒", "dots", "#1d4ed8"], s: ["索", "bamboo", "#15803d"] };
  const HONOR = [["東", "east wind", "#1b1b1b"], ["南", "south wind", "#1b1b1b"], ["西", "west wind", "#1b1b1b"],
    ["北", "north wind", "#1b1b1b"], ["", "white dragon", "#1d4ed8"], ["發", "green dragon", "#15803d"], ["中", "red dragon", "#b91c1c"]];
  const FLOWER = "春夏秋冬梅蘭菊竹";
  const cache = {};
  function label(c) {
    if (c === "??") return "a tile not written down";
    if (c === "back") return "a face-down tile";
    const d = +c[0], s = c[1];
    if (s === "z") return HONOR[d - 1] ? HONOR[d - 1][1] : c;
    if (s === "f") return "flower " + FLOWER[d - 1];
    return d === 0 ? "red 5 of " + SUIT[s][1] : d + " of " + SUIT[s][1];
  }
  function face(c) {
    const d = +c[0], s = c[1];
    const big = (t, col, y, size) => `<text x="15" y="${y}" font-size="${size}" text-anchor="middle" fill="${col}" font-weight="700" font-family="IPAGothic, 'Noto Sans CJK JP', sans-serif">${t}</text>`;
    if (c === "??") return big("?", "#6b7280", 27, 20);
    if (s === "z") {
      if (d === 5) return `<rect x="7" y="8" width="16" height="24" rx="2" fill="none" stroke="#1d4ed8" stroke-width="2.5"/>`;
      const h = HONOR[d - 1] || ["?", "", "#000"];
      return big(h[0], h[2], 28, 19);
    }
    if (s === "f") return big(FLOWER[d - 1] || "?", "#7e22ce", 26, 16) + `<text x="25" y="37" font-size="8" text-anchor="end" fill="#7e22ce">${d}</text>`;
    const [glyph, , col] = SUIT[s];
    const digit = d === 0 ? 5 : d;
    const ink = d === 0 ? "#dc2626" : "#1b1b1b";
    return big(digit, ink, 20, 17) + big(glyph, col, 35, 11) + (d === 0 ? `<circle cx="25" cy="6" r="2.6" fill="#dc2626"/>` : "");
  }
  function tileSVG(c, extra) {
    const key = c + "|" + (extra || "");
    if (cache[key]) return cache[key];
    const back = c === "back";
    const body = back
      ? `<rect x="1" y="1" width="28" height="38" rx="4" fill="#c2410c" stroke="#7c2d12"/><rect x="5" y="5" width="20" height="30" rx="3" fill="none" stroke="#fed7aa" stroke-width="1.2"/>`
      : `<rect x="1" y="1" width="28" height="38" rx="4" fill="#fbfaf5" stroke="#9ca3af"/>` + face(c);
    const l = esc(label(c)), side = (extra || "").includes("sideways");
    // a tile turned on its side (a called tile, a riichi declaration) is drawn turned, in a wider box
    const svg = side ? `<svg viewBox="0 0 40 30" role="img" aria-label="${l}, turned"><title>${l}, turned</title><g transform="translate(0 30) rotate(-90)">${body}</g></svg>`
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
  return { tileSVG, tilesHTML, codes, evidenceHTML, esc };
})();

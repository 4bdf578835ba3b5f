// The referee's report: draws the tiles of its evidence and the table at each finding's
// move, from the data mjlog wrote into the page (#pictures, and #words: the page's few
// words the script writes, in the page's language). It computes nothing.
"use strict";
(function () {
  const { tilesHTML, evidenceHTML, esc } = window.mjTiles;
  const pictures = JSON.parse(document.getElementById("pictures").textContent);
  const words = JSON.parse(document.getElementById("words").textContent);
  for (const dd of document.querySelectorAll("dd.evidence")) dd.innerHTML = evidenceHTML(dd.textContent);
  for (const box of document.querySelectorAll(".picture[data-picture]")) {
    const pic = pictures[+box.dataset.picture];
    const seats = pic.seats.map((s) => {
      const hand = s.hand.split("|");
      const river = (s.river.match(/..['*^]*/g) || []).map((t) => t.slice(0, 2)).join("");
      return `<div class="pseat${s.flagged ? " flagged" : ""}"><div>${esc(s.wind)} ${esc(s.name)}<br>${Number(s.score).toLocaleString("en")}${s.riichi ? " · " + esc(words.riichi) : ""}</div>
        <div><div class="row small">${tilesHTML(hand[0])}${hand[1] ? '<span class="drawn">' + tilesHTML(hand[1]) + "</span>" : ""}
        ${s.melds.map((m) => `<span class="meld" style="margin-left:.5rem">${tilesHTML(m)}</span>`).join("")}</div>
        <div class="row small" aria-label="discards">${tilesHTML(river)}</div></div></div>`;
    }).join("");
    box.innerHTML = `<div class="cap">${esc(pic.caption)} · ${esc(words.dora)} ${tilesHTML(pic.dora)}</div>${seats}`;
  }
})();

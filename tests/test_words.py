"""The pages in three languages: every word mjlog writes on them has its Japanese and
Chinese, and a page in Japanese or Chinese says what happened in no English word.

* every yaku and pattern name mjlog or a reader can produce, every limit and
  draw, and every finding's title (the catalogue's meanings and the checks'
  citations) has a translation into each language; names carry no ASCII letter;
* the captions of every event kind, on the examples and on real Tenhou games
  with calls, riichi, kans, kita and draws, hold no English word in Japanese or
  Chinese once tile codes and player names are taken out; the English ones are
  those mjlog wrote before the languages came (hashes taken from that code);
* ``mjlog audit --format html --lang ja`` writes its fixed words in Japanese,
  and ``mjlog view --lang ja`` writes a page whose data opens in Japanese.
"""

from __future__ import annotations

import hashlib
import json
import re
import string
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.events import (
    ABORTIVE_KINDS,
    Comment,
    Disconnect,
    Event,
    ReadyDeclared,
    Reconnect,
    Unknown,
)
from mjlog.families.docgen import catalogue
from mjlog.families.mcr.fan import FAN_NAMES
from mjlog.families.mcr.scorer import FAN_POINTS, fan_word
from mjlog.families.riichi.scoring.yaku import YAKU_NAMES
from mjlog.families.taiwan16.tai import PATTERNS
from mjlog.formats import majsoul, mjai, mleague, read_path, riichicity
from mjlog.formats.kinds import LIMIT_ALIASES, YAKU_ALIASES
from mjlog.replay.state import TableState
from mjlog.reports.view.captions import caption
from mjlog.reports.view.model import game_view
from mjlog.reports.view.words import (
    LANGS,
    PAGE_SECTIONS,
    SECTIONS,
    TITLES,
    page_words,
    phrase,
    place_text,
    t,
    words,
)

from .conftest import CORPUS, CORPUS_MISSING, EXAMPLES

OTHERS = ("ja", "zh")
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
TILE_CODES = re.compile(r"(?:[0-9][mpszf]|\?\?)+")

REAL_GAMES = (
    # four players: chi, pon, open, added and closed kan, riichi, wins, draws of both kinds
    "tenhou-xml/thewaxmango-mahjong-hands/log-libraries/logs/2022010709gm-00a9-0000-67574a4c.txt",
    # three players: kita as well
    "tenhou-xml/thewaxmango-mahjong-hands/log-libraries/logs/2022010201gm-00b9-0000-e637ea42.txt",
)

ENGLISH_BEFORE = {
    "01-double-east.mjn": "f5bc2ca840b7dc1b",
    "02-miscounted-payment.mjn": "466ceed76ba4de7e",
    "03-wrong-fu.mjn": "c0d7f5fe5a733179",
    "04-forgotten-yaku.mjn": "48f866249c13b338",
    "05-discard-not-in-hand.mjn": "bff5f6f4f2ab8478",
    "06-kan-after-riichi.mjn": "791c427d4804a5d4",
    "07-dealer-tsumo.mjn": "9fe13e8bdbf30aaa",
    "08-nine-terminals.mjn": "6719690bc8b85038",
    "09-out-of-turn.mjn": "3892b3ed62575737",
    "10-riichi-ura.mjn": "1b39985bfcba5b2a",
    "11-discards-only.mjn": "f8d80b0ce01f1dae",
    "12-sakizuke.mjn": "084d3fa858dfdbef",
    "13-taiwan-guo-shui.mjn": "56885c24d762f5fc",
    "14-taiwan-payment.mjn": "a44bf6e45da85d6b",
    "15-taiwan-seven-rob-one.mjn": "186d7ceece6010f0",
    "16-taiwan-pon-discard.mjn": "bbd4596636b3e2db",
    "17-taiwan-whole-game.mjn": "58a000b4dddbb67d",
    "18-furiten-riichi-ron.mjn": "7225c40a1ec60b81",
    "19-sakizuke-first-call.mjn": "d5ca7f7e6ddf7c9e",
    "20-noten-payment.mjn": "f5c2125c480fe7d5",
    "east-riichi.mjlog": "cf067aad1ff12242",
    "east-ron.mjlog": "75a72d5389d532fd",
    "east-seeded.mjlog": "9610a811b9719bbd",
}
"""The first 16 hex digits of the sha256 of each example's English captions and round
names, one a line, as the viewer wrote them before it had languages."""


@cache
def _views(path: Path) -> tuple[dict[str, Any], ...]:
    """The viewer's data of every game of a record (each file replayed once per run)."""
    return tuple(game_view(rec, i) for i, rec in enumerate(read_path(str(path))))


def _records() -> list[Path]:
    return sorted(EXAMPLES.glob("*.mjn")) + sorted(EXAMPLES.glob("*.mjlog"))


def _english_left(text: str, names: list[str]) -> list[str]:
    """The English words of a caption once its players' names and tile codes are out."""
    for name in sorted(names, key=len, reverse=True):
        if name:
            text = text.replace(name, " ")
    return ENGLISH_WORD.findall(TILE_CODES.sub(" ", text))


def _no_letters(text: str) -> bool:
    return not any(c in string.ascii_letters for c in text)


# ---------------------------------------------------------------- the words


def _produced_names() -> set[str]:
    """Every yaku or pattern name mjlog's scoring and its readers write into a win."""
    return (set(YAKU_NAMES) | set(PATTERNS) | set(YAKU_ALIASES.values())
            | set(majsoul.FAN_IDS.values()) | set(riichicity.FANG.values())
            | set(mjai.MJAI_YAKU.values()) | set(mleague.YAKU_NAMES.values()))


@pytest.mark.parametrize("lang", OTHERS)
def test_every_yaku_and_pattern_name_has_a_translation_without_letters(lang: str) -> None:
    table = words(lang)
    names = _produced_names()
    assert {"menzen-tsumo", "aka-dora", "kita-dora", "seat-wind-north", "menqian-zimo",
            "shiliu-buda"} <= names
    missing = sorted(n for n in names if n not in table)
    assert missing == []
    assert [n for n in names if not _no_letters(table[n])] == []


@pytest.mark.parametrize("lang", OTHERS)
def test_every_mcr_fan_has_a_name_in_japanese_and_chinese(lang: str) -> None:
    table = words(lang, ("fans",))
    names = {fan_word(n) for n in FAN_NAMES} | set(FAN_POINTS)
    assert len({fan_word(n) for n in FAN_NAMES}) == 81
    assert sorted(n for n in names if n not in table) == []
    assert [n for n in names if not _no_letters(table[n])] == []
    assert sorted(set(table) - names) == []  # no word of a fan that does not exist


def test_the_mcr_fans_have_their_official_chinese_names() -> None:
    expected = {"big-four-winds": "大四喜", "full-flush": "清一色", "last-tile-draw": "妙手回春",
                "last-tile-claim": "海底捞月", "thirteen-orphans": "十三幺",
                "mixed-double-chow": "喜相逢", "chicken-hand": "无番和"}
    assert {k: t(k, "zh") for k in expected} == expected
    assert t("thirteen-orphans", "ja") == "国士無双"
    assert t("all-pungs", "ja") == "対々和"


def test_the_terms_are_those_players_use() -> None:
    expected = {
        "ja": {"ippatsu": "一発", "menzen-tsumo": "門前清自摸和", "iipeikou": "一盃口",
               "seat-wind-east": "自風 東", "round-wind-east": "場風 東", "hatsu": "役牌 發",
               "double-riichi": "ダブル立直", "toitoi": "対々和", "kokushi-13": "国士無双１３面",
               "ura-dora": "裏ドラ", "nagashi mangan": "流し満貫", "four-kans": "四槓散了",
               "haneman": "跳満", "tsumo": "ツモ", "ron": "ロン", "chi": "チー", "pon": "ポン",
               "kan": "カン", "dealer": "親"},
        "zh": {"ippatsu": "一发", "menzen-tsumo": "门前清自摸和", "iipeikou": "一杯口",
               "rinshan-kaihou": "岭上开花", "houtei": "河底捞鱼", "chankan": "抢杠",
               "toitoi": "对对和", "dora": "宝牌", "ura-dora": "里宝牌", "aka-dora": "赤宝牌",
               "exhaustive draw": "荒牌流局", "nagashi mangan": "流局满贯",
               "four-kans": "四杠散了", "haneman": "跳满", "tsumo": "自摸", "ron": "荣和",
               "chi": "吃", "pon": "碰", "kan": "杠", "dealer": "庄家"},
    }
    for lang, terms in expected.items():
        assert {k: t(k, lang) for k in terms} == terms


@pytest.mark.parametrize("lang", OTHERS)
def test_every_limit_draw_and_event_word_has_a_translation(lang: str) -> None:
    keys = [*set(LIMIT_ALIASES.values()), *ABORTIVE_KINDS, "exhaustive draw", "nagashi mangan",
            "East", "South", "West", "North", "dealer", "riichi", "tsumo", "ron from",
            "wins by", "Final standings", "place", "player", "score", "points", "change",
            "yaku", "han", "fu", "台", "dora", "ura", "Nobody ready.", "ready", "Findings",
            "Rounds", "Moves of this round", "honba", "riichi sticks", "tiles left", "View",
            "open: every hand", "complete hand", "from ready", "waits", "show the table",
            "show the result", "disconnect", "reconnect", "comment", "unknown"]
    assert [k for k in keys if (t(k, lang) == k and k != "台") or not _no_letters(t(k, lang))
            ] == []


def test_every_findings_title_has_a_translation() -> None:
    titles = {c.meaning for c in catalogue()}
    assert len(titles) > 100
    assert sorted(titles - set(TITLES)) == []
    for lang in OTHERS:
        table = words(lang)
        for title in titles:
            assert table[title] != title and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]",
                                                       table[title]), title


def test_a_key_in_two_sections_says_the_same_and_fields_match() -> None:
    seen: dict[str, tuple[str, str]] = {}
    for section in SECTIONS.values():
        for key, pair in section.items():
            assert seen.setdefault(key, pair) == pair, key
            fields = set(re.findall(r"\{(\w+)\}", key))
            for text in pair:
                assert text and set(re.findall(r"\{(\w+)\}", text)) == fields, key


def test_words_and_their_lookups() -> None:
    assert words("en") == {} and t("Findings", "en") == "Findings"
    assert t("Findings", "ja") == "指摘事項" and t("majsoul-99", "zh") == "majsoul-99"
    assert t("{n} tiles left", "en", n=12) == "12 tiles left"
    assert t("{n} tiles left", "ja", n=12) == "残り12枚"
    assert phrase("temporary furiten: passed 2s (discard of player 2, turn 126)", "zh") \
        == "同巡振听：放过2s（玩家2的打牌，第126手）"
    assert phrase("furiten: waits on 36m, discarded", "ja") == "フリテン：待ちの36mを捨てている"
    assert phrase("nobody wrote this", "ja") == "nobody wrote this"
    assert place_text("E1-0, turn 5, player 1, line 3, column 7", "ja") \
        == "E1-0、5手目、プレイヤー1、3行目、7桁目"
    assert place_text("E1-0, turn 5", "en") == "E1-0, turn 5"
    page = page_words("ja", ["riichi", "fu differ", "not a key"])
    assert page["riichi"] == "立直" and page["fu differ"] == "符が違う" and "pinfu" not in page
    assert set(words("ja", PAGE_SECTIONS)) <= set(page) and page_words("en", ["riichi"]) == {}
    with pytest.raises(ValueError, match="unknown language"):
        words("fr")
    assert LANGS == ("en", "ja", "zh")


# ---------------------------------------------------------------- the captions


@pytest.mark.parametrize("path", _records(), ids=lambda p: p.name)
def test_the_english_captions_are_those_mjlog_wrote_before(path: Path) -> None:
    said = [text for v in _views(path) for text in
            [st["c"] for st in v["steps"]] + [r[1] for r in v["rounds"]]]
    digest = hashlib.sha256("\n".join(said).encode()).hexdigest()[:16]
    assert digest == ENGLISH_BEFORE[path.name], said[:12]


def _check_captions(views: tuple[dict[str, Any], ...]) -> set[str]:
    """Assert that no caption or round name in Japanese or Chinese holds an English word;
    return the kinds of event captioned (from the English)."""
    kinds: set[str] = set()
    for v in views:
        names = list(v["players"])
        assert len(v["caption_at"]) == len(v["steps"])
        for lang in OTHERS:
            said = v["captions"][lang]
            assert max(v["caption_at"], default=-1) < len(said)
            left = {text: _english_left(text, names) for text in said}
            assert {k: w for k, w in left.items() if w} == {}
            assert len(v["round_names"][lang]) == len(v["rounds"])
            assert all(_english_left(r, []) == [] for r in v["round_names"][lang])
        kinds.update(_kind(st["c"]) for st in v["steps"])
    return kinds


def _kind(english: str) -> str:
    for word, kind in (("draws", "draw"), ("discards", "discard"), ("chis", "chi"),
                       ("pons", "pon"), ("calls kan", "open kan"), ("adds", "added kan"),
                       ("closed kan", "closed kan"), ("(kita)", "kita"), ("flower", "flower"),
                       ("riichi stands", "riichi"), ("dora indicator", "dora"),
                       ("by tsumo", "tsumo"), ("by ron", "ron"), ("Exhaustive", "draw end"),
                       ("Abortive", "abortive"), ("deals", "round start")):
        if word in english:
            return kind
    return english


def test_captions_in_japanese_and_chinese_hold_no_english_word_on_the_examples() -> None:
    kinds = set().union(*(_check_captions(_views(p)) for p in _records()))
    assert {"draw", "discard", "chi", "pon", "closed kan", "flower", "riichi", "dora", "tsumo",
            "ron", "draw end", "abortive", "round start", "The game starts: Aoi, Ben, Chiyo, Dai",
            "The round ends", "The game ends", "comment"} <= kinds


def test_captions_in_japanese_and_chinese_hold_no_english_word_on_real_games() -> None:
    if not (CORPUS / "_index.tsv").exists():
        pytest.skip(CORPUS_MISSING)
    kinds = set().union(*(_check_captions(_views(CORPUS / g)) for g in REAL_GAMES))
    assert {"chi", "pon", "open kan", "added kan", "closed kan", "kita", "riichi", "dora",
            "tsumo", "ron", "draw end", "abortive"} <= kinds


@pytest.mark.parametrize("ev", [ReadyDeclared(player=1), Disconnect(player=0),
                                Reconnect(player=2), Comment(text="hi"), Unknown(tag="X"),
                                ReadyDeclared(player=7)], ids=lambda e: e.TYPE)
def test_the_captions_of_the_other_events(ev: Event) -> None:
    names = ["Aoi", "Ben", "Chiyo", "Dai"]
    english = caption(ev, TableState(4), names, True)
    for lang in OTHERS:
        said = caption(ev, TableState(4), names, True, lang=lang)
        assert said != english and _english_left(said, names) == [], said


# ---------------------------------------------------------------- the pages


def _script(html: str, name: str) -> Any:
    """The JSON of a page's ``<script id=name>``."""
    found = re.search(rf'<script id="{name}"[^>]*>(.*?)</script>', html, re.DOTALL)
    assert found is not None, name
    return json.loads(found.group(1).replace("<\\/", "</"))


def _texts(html: str) -> list[str]:
    """The text between the tags of a page's body, scripts left out."""
    body = re.sub(r"<script.*?</script>", "", html[html.index("<body>"):], flags=re.DOTALL)
    return [x.strip() for x in re.findall(r">([^<>]+)<", body) if x.strip()]


def test_the_referees_page_in_japanese(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    records = [str(EXAMPLES / n) for n in ("02-miscounted-payment.mjn",
                                            "18-furiten-riichi-ron.mjn", "13-taiwan-guo-shui.mjn")]
    result = CliRunner().invoke(main, ["audit", *records, "--format", "html", "--lang", "ja",
                                       "-o", str(out)])
    assert result.exit_code == 1, result.output
    page = out.read_text("utf-8")
    assert '<html lang="ja">' in page
    fixed = re.findall(r"<(?:th|dt|h3|a class=\"move\"[^>]*|div class=\"title\")>([^<]*)<",
                       page)
    assert len(fixed) > 30
    assert [w for w in fixed if not _no_letters(w) and not re.fullmatch(r"E\d-\d+", w)] == []
    texts = _texts(page)
    for word in ("概要", "精算", "この手から再生", "ルール", "ルール違反", "点数の不一致"):
        assert word in texts, word
    assert not {"Summary", "Who owes what", "open the replay at this move"} & set(texts)
    pictures = _script(page, "pictures")
    assert pictures and all(_english_left(p["caption"], [s["name"] for s in p["seats"]]) == []
                            for p in pictures)
    assert {s["wind"] for p in pictures for s in p["seats"]} <= set("東南西北")
    replay = next((tmp_path / "report-games").glob("*.html")).read_text("utf-8")
    assert '"lang":"ja"' in replay


def test_the_viewer_page_opens_in_the_language_asked(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = CliRunner().invoke(main, ["view", str(EXAMPLES / "10-riichi-ura.mjn"), "--lang",
                                       "ja", "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = _script(out.read_text("utf-8"), "game-data")
    assert data["lang"] == "ja" and data["langs"] == ["en", "ja", "zh"]
    assert data["words"]["en"] == {} and data["words"]["ja"]["Findings"] == "指摘事項"
    assert data["words"]["zh"]["riichi"] == "立直" and "ura-dora" in data["words"]["ja"]
    assert set(data["captions"]) == {"ja", "zh"}
    steps = data["steps"]
    assert [data["captions"]["ja"][k] for k in data["caption_at"]][:2] == [
        "対局開始：Aoi、Ben、Chiyo、Dai", "東1局：Aoiが親"]
    assert steps[0]["c"] == "The game starts: Aoi, Ben, Chiyo, Dai"
    refused = CliRunner().invoke(main, ["view", str(EXAMPLES / "10-riichi-ura.mjn"), "--lang",
                                        "fr", "-o", str(out)])
    assert refused.exit_code == 2

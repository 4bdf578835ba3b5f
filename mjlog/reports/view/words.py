"""The pages' words in English, Japanese and Chinese: one table, keyed by the English.

Every fixed word the replay viewer, the referee's page and the statistics
report show is written in English in their code, and that English phrase is
its key here: ``t("Findings", "ja")`` is ``指摘事項``. Each section below maps
an English phrase to its ``(Japanese, Chinese)`` pair; adding a word is adding
one line to a section (:data:`SECTIONS` lists them, :data:`PAGE_SECTIONS`
those a replay page carries).

* Japanese is written as Tenhou's and Mahjong Soul's Japanese clients write
  it (立直, 一発, 門前清自摸和, 流し満貫, ツモ, ロン …); Chinese in
  simplified characters as Chinese-speaking riichi players and Mahjong Soul's
  Chinese client write it (一发, 门前清自摸和, 流局满贯, 自摸, 荣和 …).
  Taiwanese 16-tile patterns keep their own names, in each script.
* Yaku and pattern keys are mjlog's own names (``menzen-tsumo``,
  ``seat-wind-east``, ``menqian-zimo``), limits mjlog's limit names
  (``mangan``), draws the names :func:`mjlog.reports.view.captions.result_screen`
  gives (``exhaustive draw``, ``nine-terminals``). A name mjlog does not know
  (``majsoul-99``) has no entry and is shown as it is.
* A key may hold fields in braces (``"{n} tiles left"``); its translations
  hold the same fields. :func:`t` fills them; :func:`phrase` also reads a
  whole text written from such a key back (``"furiten: waits on 36m,
  discarded"``) and translates its fields in turn.
* The findings' titles are the catalogue's one-line meanings
  (:mod:`mjlog.core.catalogue`, the checks' citations), keyed by their English.

This module is data and lookups only: it imports nothing of mjlog, formats
no tile and names no player (tile codes and names stay as they are).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Final

LANGS: Final = ("en", "ja", "zh")
"""The languages of the pages: English (the keys), Japanese, Chinese (simplified)."""

Entry = tuple[str, str]
"""A phrase's (Japanese, Chinese)."""

YAKU: Final[dict[str, Entry]] = {
    "menzen-tsumo": ("門前清自摸和", "门前清自摸和"),
    "riichi": ("立直", "立直"),
    "ippatsu": ("一発", "一发"),
    "chankan": ("槍槓", "抢杠"),
    "rinshan-kaihou": ("嶺上開花", "岭上开花"),
    "haitei": ("海底摸月", "海底摸月"),
    "houtei": ("河底撈魚", "河底捞鱼"),
    "pinfu": ("平和", "平和"),
    "tanyao": ("断幺九", "断幺九"),
    "iipeikou": ("一盃口", "一杯口"),
    "seat-wind-east": ("自風 東", "自风 东"),
    "seat-wind-south": ("自風 南", "自风 南"),
    "seat-wind-west": ("自風 西", "自风 西"),
    "seat-wind-north": ("自風 北", "自风 北"),
    "round-wind-east": ("場風 東", "场风 东"),
    "round-wind-south": ("場風 南", "场风 南"),
    "round-wind-west": ("場風 西", "场风 西"),
    "round-wind-north": ("場風 北", "场风 北"),
    "haku": ("役牌 白", "役牌 白"),
    "yakuhai": ("役牌", "役牌"),
    "hatsu": ("役牌 發", "役牌 发"),
    "chun": ("役牌 中", "役牌 中"),
    "double-riichi": ("ダブル立直", "两立直"),
    "chiitoitsu": ("七対子", "七对子"),
    "chanta": ("混全帯幺九", "混全带幺九"),
    "ittsu": ("一気通貫", "一气通贯"),
    "sanshoku": ("三色同順", "三色同顺"),
    "sanshoku-doukou": ("三色同刻", "三色同刻"),
    "sankantsu": ("三槓子", "三杠子"),
    "toitoi": ("対々和", "对对和"),
    "sanankou": ("三暗刻", "三暗刻"),
    "shousangen": ("小三元", "小三元"),
    "honroutou": ("混老頭", "混老头"),
    "ryanpeikou": ("二盃口", "二杯口"),
    "junchan": ("純全帯幺九", "纯全带幺九"),
    "honitsu": ("混一色", "混一色"),
    "chinitsu": ("清一色", "清一色"),
    "renhou": ("人和", "人和"),
    "tenhou": ("天和", "天和"),
    "chiihou": ("地和", "地和"),
    "daisangen": ("大三元", "大三元"),
    "suuankou": ("四暗刻", "四暗刻"),
    "suuankou-tanki": ("四暗刻単騎", "四暗刻单骑"),
    "tsuuiisou": ("字一色", "字一色"),
    "ryuuiisou": ("緑一色", "绿一色"),
    "chinroutou": ("清老頭", "清老头"),
    "chuuren-poutou": ("九蓮宝燈", "九莲宝灯"),
    "junsei-chuuren-poutou": ("純正九蓮宝燈", "纯正九莲宝灯"),
    "kokushi": ("国士無双", "国士无双"),
    "kokushi-13": ("国士無双１３面", "国士无双十三面"),
    "daisuushii": ("大四喜", "大四喜"),
    "shousuushii": ("小四喜", "小四喜"),
    "suukantsu": ("四槓子", "四杠子"),
    "dora": ("ドラ", "宝牌"),
    "ura-dora": ("裏ドラ", "里宝牌"),
    "aka-dora": ("赤ドラ", "赤宝牌"),
    "kita-dora": ("抜きドラ", "拔北宝牌"),
}
"""Every yaku mjlog names (:mod:`mjlog.families.riichi.scoring.yaku`, and the platforms' kita
dora)."""

PATTERNS: Final[dict[str, Entry]] = {
    "menqian": ("門前", "门前"),
    "zimo": ("自摸", "自摸"),
    "menqian-zimo": ("門前自摸", "门前自摸"),
    "quanqiu": ("全求", "全求"),
    "banqiu": ("半求", "半求"),
    "zhuangjia": ("荘家", "庄家"),
    "lianzhuang": ("連荘", "连庄"),
    "lazhuang": ("拉荘", "拉庄"),
    "fengpai": ("風牌", "风牌"),
    "sanyuanpai": ("三元牌", "三元牌"),
    "duting": ("独聴", "独听"),
    "haidi": ("海底撈月", "海底捞月"),
    "hedi": ("河底撈魚", "河底捞鱼"),
    "gangshang": ("槓上開花", "杠上开花"),
    "qianggang": ("搶槓", "抢杠"),
    "huapai": ("花牌", "花牌"),
    "huagang": ("花槓", "花杠"),
    "pinghu": ("平胡", "平胡"),
    "pengpeng": ("碰碰胡", "碰碰胡"),
    "hunyise": ("混一色", "混一色"),
    "qingyise": ("清一色", "清一色"),
    "xiaosanyuan": ("小三元", "小三元"),
    "dasanyuan": ("大三元", "大三元"),
    "sananke": ("三暗刻", "三暗刻"),
    "sianke": ("四暗刻", "四暗刻"),
    "wuanke": ("五暗刻", "五暗刻"),
    "xiaosixi": ("小四喜", "小四喜"),
    "dasixi": ("大四喜", "大四喜"),
    "ziyise": ("字一色", "字一色"),
    "baxian": ("八仙過海", "八仙过海"),
    "qiqiangyi": ("七搶一", "七抢一"),
    "huahu": ("配牌花胡", "配牌花胡"),
    "tianhu": ("天胡", "天胡"),
    "dihu": ("地胡", "地胡"),
    "renhu": ("人胡", "人胡"),
    "tianting": ("天聴", "天听"),
    "diting": ("地聴", "地听"),
    "diting-yifa": ("地聴一発", "地听一发"),
    "liguligu": ("嚦咕嚦咕", "呖咕呖咕"),
    "shiliu-buda": ("十六不搭", "十六不搭"),
}
"""The Taiwanese 16-tile patterns (:data:`mjlog.families.taiwan16.tai.PATTERNS`)."""

RESULTS: Final[dict[str, Entry]] = {
    "mangan": ("満貫", "满贯"),
    "haneman": ("跳満", "跳满"),
    "baiman": ("倍満", "倍满"),
    "sanbaiman": ("三倍満", "三倍满"),
    "yakuman": ("役満", "役满"),
    "exhaustive draw": ("流局", "荒牌流局"),
    "Exhaustive draw": ("流局", "荒牌流局"),
    "nagashi mangan": ("流し満貫", "流局满贯"),
    "Nagashi mangan": ("流し満貫", "流局满贯"),
    "nine-terminals": ("九種九牌", "九种九牌"),
    "four-riichi": ("四家立直", "四家立直"),
    "triple-ron": ("三家和了", "三家和了"),
    "four-kans": ("四槓散了", "四杠散了"),
    "four-winds": ("四風連打", "四风连打"),
    "unstated": ("途中流局（種類の記載なし）", "途中流局（未注明种类）"),
    "abortive draw": ("途中流局", "途中流局"),
    "wins by": ("和了", "和牌"),
    "tsumo": ("ツモ", "自摸"),
    "ron": ("ロン", "荣和"),
    "ron from": ("ロン 放銃：", "荣和 放铳："),
    "{winner} tsumo {n}": ("{winner} ツモ {n}", "{winner} 自摸 {n}"),
    "{winner} ron {n} from {from}": ("{winner} ロン {n}（{from}）",
                                     "{winner} 荣和 {n}（{from}放铳）"),
    "{winner} wins by tsumo": ("{winner}のツモ和了", "{winner}自摸和牌"),
    "{winner} wins by ron from {from}": (
        "{winner}が{from}からロン和了",
        "{winner}荣和，{from}放铳"),
    "yaku": ("役", "役种"),
    "pattern": ("役", "牌型"),
    "han": ("翻", "番"),
    "fu": ("符", "符"),
    "台": ("台", "台"),
    "{han} han {fu} fu": ("{han}翻{fu}符", "{han}番{fu}符"),
    "{han} 台": ("{han}台", "{han}台"),
    "dora": ("ドラ", "宝牌"),
    "ura": ("裏ドラ", "里宝牌"),
    "points": ("ポイント", "得点"),
    "{n} points": ("{n}点", "{n}点"),
    "change": ("収支", "点数变动"),
    "player": ("プレイヤー", "玩家"),
    "score": ("持ち点", "点数"),
    "place": ("順位", "顺位"),
    "Final standings": ("最終結果", "最终结果"),
    "ready": ("聴牌", "听牌"),
    "{name} ready:": ("{name} 聴牌：", "{name} 听牌："),
    "Nobody ready.": ("全員ノーテン。", "全员未听牌。"),
    "nobody ready": ("全員ノーテン", "全员未听牌"),
}
"""Limits, draws and the result screens' words."""

TABLE: Final[dict[str, Entry]] = {
    "East": ("東", "东"),
    "South": ("南", "南"),
    "West": ("西", "西"),
    "North": ("北", "北"),
    "{wind} {n}": ("{wind}{n}局", "{wind}{n}局"),
    "honba": ("本場", "本场"),
    "honba {n}": ("{n}本場", "{n}本场"),
    "dealer": ("親", "庄家"),
    "riichi": ("立直", "立直"),
    "(dealer)": ("（親）", "（庄家）"),
    "riichi sticks": ("供託", "供托"),
    "riichi sticks {n}": ("供託{n}", "供托{n}"),
    "tiles left": ("残り牌", "余牌"),
    "{n} tiles left": ("残り{n}枚", "余牌{n}张"),
    "move": ("手", "手"),
    "move {n}": ("{n}手目", "第{n}手"),
    "move {k} of {n}": ("{k}/{n}手目", "第{k}/{n}手"),
    "Before the first round": ("第1局の前", "第一局之前"),
    "Seat {n}": ("{n}番席", "{n}号座"),
    "complete hand": ("和了形", "和牌型"),
    "from ready": ("向聴", "向听"),
    "{n} from ready": ("{n}向聴", "{n}向听"),
    "waits": ("待ち", "待牌"),
    "chi": ("チー", "吃"),
    "pon": ("ポン", "碰"),
    "kan": ("カン", "杠"),
    "open kan": ("大明槓", "大明杠"),
    "added kan": ("加槓", "加杠"),
    "closed kan": ("暗槓", "暗杠"),
    "kita": ("抜きドラ", "拔北"),
    "flower": ("花牌", "花牌"),
    "the next player": ("下家", "下家"),
    "across": ("対面", "对家"),
    "the player before": ("上家", "上家"),
    "{meld} from {seat}": ("{seat}からの{meld}", "来自{seat}的{meld}"),
    "hand": ("手牌", "手牌"),
    "discards": ("捨て牌", "牌河"),
    "set aside": ("抜いた牌", "拔出的牌"),
    "furiten": ("フリテン", "振听"),
    "furiten: waits on {tiles}, discarded": (
        "フリテン：待ちの{tiles}を捨てている",
        "振听：所听的{tiles}已打出过"),
    "riichi furiten: passed {what}": ("立直後フリテン：{what}を見逃し", "立直振听：放过{what}"),
    "temporary furiten: passed {what}": ("同巡内フリテン：{what}を見逃し", "同巡振听：放过{what}"),
    "{tile} (discard of player {p}, turn {n})": (
        "{tile}（プレイヤー{p}の打牌、{n}手目）",
        "{tile}（玩家{p}的打牌，第{n}手）"),
    "dead hand: {why}": ("死に手：{why}", "死手：{why}"),
    "過水: {what}": ("過水：{what}", "过水：{what}"),
    "passed a win on {tile} (discard by player {p}, turn {n})": (
        "{tile}の和了を見逃し（プレイヤー{p}の打牌、{n}手目）",
        "放过{tile}和牌（玩家{p}的打牌，第{n}手）"),
    "disconnect": ("切断", "断线"),
    "reconnect": ("再接続", "重连"),
    "comment": ("コメント", "注释"),
    "unknown": ("不明なイベント", "未知事件"),
}
"""The table: winds, rounds, counts, hands, melds and what happened."""

TILES: Final[dict[str, Entry]] = {
    "characters": ("萬子", "万子"),
    "dots": ("筒子", "筒子"),
    "bamboo": ("索子", "索子"),
    "{n} of {suit}": ("{n}{suit}", "{n}{suit}"),
    "red 5 of {suit}": ("赤5{suit}", "赤5{suit}"),
    "east wind": ("東", "东风"),
    "south wind": ("南", "南风"),
    "west wind": ("西", "西风"),
    "north wind": ("北", "北风"),
    "white dragon": ("白", "白"),
    "green dragon": ("發", "发"),
    "red dragon": ("中", "中"),
    "flower {name}": ("花牌 {name}", "花牌 {name}"),
    "a tile not written down": ("記録のない牌", "未记录的牌"),
    "a face-down tile": ("伏せた牌", "扣着的牌"),
    "{tile}, turned": ("{tile}（横向き）", "{tile}（横置）"),
}
"""The tiles' labels for screen readers (``tiles.js``)."""

VIEWER: Final[dict[str, Entry]] = {
    "The table": ("卓", "牌桌"),
    "Move through the game": ("対局を進める", "浏览对局"),
    "Start of the game (Home)": ("対局の最初 (Home)", "对局开始 (Home)"),
    "Previous round (Page Up)": ("前の局 (Page Up)", "上一局 (Page Up)"),
    "Previous move of the seat in view (Shift+←)": (
        "表示中の席の前の手 (Shift+←)",
        "所看座位的上一手 (Shift+←)"),
    "Previous move (←)": ("前の手 (←)", "上一手 (←)"),
    "Next move (→)": ("次の手 (→)", "下一手 (→)"),
    "Next move of the seat in view (Shift+→)": (
        "表示中の席の次の手 (Shift+→)",
        "所看座位的下一手 (Shift+→)"),
    "Next round (Page Down)": ("次の局 (Page Down)", "下一局 (Page Down)"),
    "End of the game (End)": ("対局の最後 (End)", "对局结束 (End)"),
    "Position in the game": ("対局中の位置", "对局中的位置"),
    "View": ("視点", "视角"),
    "Whose hands are shown": ("表示する手牌", "显示谁的手牌"),
    "open: every hand": ("公開：全員の手牌", "公开：所有手牌"),
    "Keys: ← → move · Shift+← → the viewed seat's moves · Page Up/Down rounds · Home/End · 1–{n} "
    "a seat's view, 0 every hand · R the result or the table.": (
        "キー：← → 手 · Shift+← → 表示中の席の手 · Page Up/Down 局 · Home/End · 1–{n} "
        "その席の視点、0 全員の手牌 · R 結果と卓の切り替え。",
        "按键：← → 步 · Shift+← → 所看座位的行动 · Page Up/Down 局 · Home/End · 1–{n} "
        "该座位的视角，0 所有手牌 · R 切换结果与牌桌。"),
    "◀ win": ("◀ 和了", "◀ 和牌"),
    "win ▶": ("和了 ▶", "和牌 ▶"),
    "◀ call": ("◀ 鳴き", "◀ 副露"),
    "call ▶": ("鳴き ▶", "副露 ▶"),
    "◀ riichi": ("◀ 立直", "◀ 立直"),
    "riichi ▶": ("立直 ▶", "立直 ▶"),
    "Play the moves one after another (Space)": ("自動で進める (Space)", "自动播放 (Space)"),
    "Keys: ← → move · Shift+← → the viewed seat's moves · Page Up/Down rounds · Home/End · "
    "W/Shift+W wins · C/Shift+C calls · I/Shift+I riichi · Space autoplay · 1–4 a seat's view, "
    "0 every hand · R the result or the table.": (
        "キー：← → 手 · Shift+← → 表示中の席の手 · Page Up/Down 局 · Home/End · W/Shift+W 和了 · "
        "C/Shift+C 鳴き · I/Shift+I 立直 · Space 自動再生 · 1–4 その席の視点、0 全員の手牌 · R "
        "結果と卓の切り替え。",
        "按键：← → 步 · Shift+← → 所看座位的行动 · Page Up/Down 局 · Home/End · W/Shift+W 和牌 · "
        "C/Shift+C 副露 · I/Shift+I 立直 · Space 自动播放 · 1–4 该座位的视角，0 所有手牌 · R "
        "切换结果与牌桌。"),
    "This round for NAGA, Mortal and Tenhou's editor (tenhou.net/6 JSON)": (
        "この局をNAGA・Mortal・天鳳の牌譜エディタへ（tenhou.net/6 JSON）",
        "本局用于NAGA、Mortal和天凤牌谱编辑器（tenhou.net/6 JSON）"),
    "Copy": ("コピー", "复制"),
    "copied": ("コピーしました", "已复制"),
    "The same for every round: mjlog convert GAME -t tenhou6 --per-round": (
        "全局をまとめて：mjlog convert GAME -t tenhou6 --per-round",
        "所有局一次导出：mjlog convert GAME -t tenhou6 --per-round"),
    "Findings": ("指摘事項", "审查结果"),
    "Rounds": ("局一覧", "局列表"),
    "Moves of this round": ("この局の手順", "本局行动"),
    "ruleset": ("ルール", "规则"),
    "all games": ("全対局", "全部对局"),
    "{file}, game {n}": ("{file}、第{n}対局", "{file}，第{n}场"),
    "Show the table under the result (R)": ("結果の下の卓を表示 (R)", "显示结果下的牌桌 (R)"),
    "show the table": ("卓を表示", "显示牌桌"),
    "Show the result again (R)": ("結果を再表示 (R)", "重新显示结果 (R)"),
    "show the result": ("結果を表示", "显示结果"),
    "Language": ("言語", "语言"),
    "rule": ("ルール", "规则"),
    "recorded": ("記録", "记录值"),
    "computed": ("計算", "计算值"),
    "consequence": ("処置", "处理"),
    "(none)": ("（なし）", "（无）"),
    "{field} differs": ("{field}が異なる", "{field}不一致"),
    "None: the audit found no problem in this game.": (
        "なし：この対局に問題は見つかりませんでした。",
        "无：本局审查未发现问题。"),
    "Notes: what was not judged or verified ({n})": (
        "注記：判定・検証できなかったこと（{n}）",
        "备注：未能判定或核实的内容（{n}）"),
    "({n})": ("（{n}件）", "（{n}条）"),
    "({n}, and {k} notes)": ("（{n}件、ほかに注記{k}件）", "（{n}条，另有备注{k}条）"),
    "notes": ("注記", "备注"),
    "error": ("エラー", "错误"),
    "warning": ("警告", "警告"),
    "info": ("注記", "备注"),
    "turn {n}": ("{n}手目", "第{n}手"),
    "player {n}": ("プレイヤー{n}", "玩家{n}"),
    "line {n}": ("{n}行目", "第{n}行"),
    "column {n}": ("{n}桁目", "第{n}列"),
    "element {n}": ("要素{n}", "元素{n}"),
    "unknown position": ("位置不明", "位置未知"),
    "first call": ("最初の鳴き", "首次副露"),
    "discarded": ("捨てた牌", "已打出"),
    "may not discard": ("切れない牌", "不能打出"),
    "passed": ("見逃した牌", "放过的牌"),
    "readings": ("面子の取り方", "拆解方式"),
    "readings destroyed": ("崩れる取り方", "被破坏的拆解"),
    "waits before": ("前の待ち", "之前的待牌"),
    "waits after": ("後の待ち", "之后的待牌"),
    "call": ("鳴き", "副露"),
    "procedure": ("手順", "程序"),
    "wall": ("牌山", "牌山"),
    "why": ("理由", "原因"),
    # an AI's review beside the moves (mjlog/reports/view/review.py)
    "◀ AI differs": ("◀ AI不一致", "◀ AI不同"),
    "AI differs ▶": ("AI不一致 ▶", "AI不同 ▶"),
    "Only the moves the AI disagrees with (whole game)": (
        "AIと選択が違う手だけ（対局全体）", "只显示AI意见不同的手（整局）"),
    "Moves the AI disagrees with": ("AIと選択が違う手", "AI意见不同的手"),
    "The AI would have chosen otherwise": ("AIは別の選択をした", "AI会做出不同选择"),
    "model {m}": ("モデル {m}", "模型 {m}"),
    "mjai-reviewer {v}": ("mjai-reviewer {v}", "mjai-reviewer {v}"),
    "Parts of the review that do not fit this game ({n})": (
        "この対局に合わない検討部分（{n}）", "与本局不符的检讨部分（{n}）"),
    "{engine}'s review": ("{engine}の検討", "{engine}的检讨"),
    "The AI's opinion of {name}'s decisions, not mjlog's: its choice and its probabilities "
    "and Q-values.": (
        "{name}の選択に対するAIの意見（mjlogの判定ではない）：AIの選択と確率・Q値。",
        "AI对{name}决策的意见（不是mjlog的判断）：AI的选择及其概率和Q值。"),
    "same choice": ("一致", "一致"),
    "the move played is the AI's option {n}": (
        "実際の手はAIの第{n}候補", "实际的手是AI的第{n}选项"),
    "D/Shift+D the next or previous move the AI disagrees with.": (
        "D/Shift+D AIと選択が違う次・前の手。", "D/Shift+D 下一个或上一个AI意见不同的手。"),
    "the AI differs": ("AIと不一致", "与AI不同"),
    "the AI's options": ("AIの候補", "AI的选项"),
    "probability": ("確率", "概率"),
    "Q-value": ("Q値", "Q值"),
    "No decision of this move was reviewed.": ("この手の検討はありません。", "此手没有检讨。"),
    "discard": ("打牌", "打牌"),
    "win": ("和了", "和牌"),
    "draw": ("流局", "流局"),
    "pass": ("見送り", "跳过"),
    # mjlog's decision facts under the tiles (mjlog/reports/view/facts.py,
    # mjlog/families/riichi/decisions)
    "Efficiency & safety": ("牌効率と安全度", "牌效与安全度"),
    "Under each tile of the hand to act: its ukeire and shanten after discarding it, and "
    "its safety against each riichi (F)": (
        "手番の手牌の各牌の下に、それを切った後の受け入れ枚数と向聴数、各立直に対する安全度（F）",
        "在行动者手牌的每张牌下显示打出它之后的进张数和向听数，以及对各立直的安全度（F）"),
    "F efficiency and safety: each discard's ukeire and shanten under the tiles, and the "
    "safety of each tile against riichi.": (
        "F 牌効率と安全度：各打牌の受け入れと向聴を牌の下に、立直に対する各牌の安全度。",
        "F 牌效与安全度：在牌下显示每种打法的进张和向听，以及每张牌对立直的安全度。"),
    "Only the moves where the player, the AI and the most accepting choice all differ "
    "(whole game)": (
        "打牌・AI・最大受け入れの三つが全て違う手だけ（対局全体）",
        "只显示玩家、AI与最大进张三者都不同的手（整局）"),
    "Moves where the player, the AI and the most accepting choice all differ": (
        "打牌・AI・最大受け入れが全て違う手", "玩家、AI与最大进张都不同的手"),
    "Only the discards that were not the most accepting (whole game)": (
        "受け入れ最大でない打牌だけ（対局全体）", "只显示不是最大进张的打牌（整局）"),
    "Discards that were not the most accepting": ("受け入れ最大でない打牌", "不是最大进张的打牌"),
    "genbutsu": ("現物", "现物"),
    "suji": ("筋", "筋"),
    "kabe": ("壁（ノーチャンス）", "壁（无机会）"),
    "one-chance": ("ワンチャンス", "一枚机会"),
    "honour, 4 visible": ("字牌・4枚見え", "字牌·见4张"),
    "honour, 3 visible": ("字牌・3枚見え", "字牌·见3张"),
    "no safety class": ("安全度なし", "无安全依据"),
    "safety against {name}": ("{name}に対する安全度", "对{name}的安全度"),
    "not computed": ("未計算", "未计算"),
    "ukeire {n} tiles": ("受け入れ{n}枚", "进张{n}张"),
    "kuikae forbids it": ("喰い替えで切れない", "食替禁止打出"),
    "Deal-in": ("放銃", "放铳"),
    "the discarder was ready": ("放銃者はテンパイ", "放铳者已听牌"),
    "the discarder was {n} from ready": ("放銃者は{n}向聴", "放铳者{n}向听"),
    "the tile was {cls} against {name}": ("{name}に対して{cls}の牌", "对{name}而言是{cls}的牌"),
    "Under each tile: the tiles that lower the shanten after discarding it (upper) and "
    "the shanten it leaves (lower); a frame marks the tile thrown, a dot the most "
    "accepting.": (
        "各牌の下：それを切った後に向聴を進める牌の枚数（上）と残る向聴数（下）。"
        "枠は実際に切った牌、点は受け入れ最大の牌。",
        "每张牌下：打出它之后能减少向听的牌的张数（上）和剩下的向听数（下）；"
        "框表示实际打出的牌，圆点表示最大进张的牌。"),
    "forced: the hand is in riichi": ("強制：立直中", "强制：立直中"),
    "loss: {s} shanten and {n} tiles": ("ロス：向聴{s}・{n}枚", "损失：向听{s}、{n}张"),
    "no loss": ("ロスなし", "无损失"),
    "{name}'s decision": ("{name}の選択", "{name}的选择"),
    "most accepting": ("受け入れ最大", "最大进张"),
    "the hand holds tiles nobody wrote down (?)": (
        "記録されていない牌（?）が手牌にある", "手牌中有未记录的牌（?）"),
    "a tile on the table is unknown (?), so unseen copies are not counted": (
        "卓上に不明な牌（?）があるため、見えていない枚数は数えない",
        "桌上有未知的牌（?），因此不计算未见张数"),
    "the hand holds a flower": ("手牌に花牌がある", "手牌中有花牌"),
    "the hand holds {n} tiles with {k} calls, not a hand that discards": (
        "手牌{n}枚・副露{k}つで、打牌する形ではない", "手牌{n}张、副露{k}组，不是打牌的手牌"),
    "more than four copies of a kind are on the table": (
        "同じ牌が卓上に5枚以上ある", "桌上同一种牌超过四张"),
    "the tile thrown is not in the hand": ("切った牌が手牌にない", "打出的牌不在手牌中"),
    "the kinds are left out to keep the page within its size budget": (
        "ページの大きさを抑えるため牌の種類は省略", "为控制页面大小，省略了牌的种类"),
}
"""The replay viewer's own words (``viewer.html.j2``, ``viewer.js``) and the findings'
labels."""

TITLES: Final[dict[str, Entry]] = {
    # reading a record (diagnostics)
    "the file is no record format mjlog reads": (
        "mjlogが読める記録形式のファイルではない",
        "该文件不是mjlog能读取的牌谱格式"),
    "the file cannot be opened": ("ファイルを開けない", "无法打开该文件"),
    "the text is not UTF-8; its position is the first bad byte": (
        "テキストがUTF-8ではない（位置は最初の不正なバイト）",
        "文本不是UTF-8编码（位置为第一个错误字节）"),
    "a damaged or cut gzip stream: what decompressed before the damage is read": (
        "壊れた、または途中で切れたgzipストリーム：壊れた箇所より前に展開できた分は読む",
        "损坏或被截断的gzip流：读取损坏处之前已解压的部分"),
    "a record past the size limit (gzip expanding past 256 MB, or --max-record-mb; one game's "
    "text past 16 MB; a JSON line past 16 MB): not read": (
        "サイズ上限を超える記録（gzipの展開が256 "
        "MB超、または--max-record-mb超；1対局のテキストが16 MB超；JSONの1行が16 MB超）：読まない",
        "超过大小上限的记录（gzip解压超过256 MB或--max-record-mb；单局文本超过16 "
        "MB；单行JSON超过16 MB）：不读取"),
    "a reader failed on this input: a bug in mjlog, reported with the exception": (
        "この入力の読み取りが失敗した：mjlogの不具合（例外とともに報告）",
        "读取该输入时失败：mjlog的缺陷（附带异常信息报告）"),
    "in a pool or on a cluster, reading or judging this file made the worker processes exit, "
    "alone and again (a crash, the worker's memory limit): reported, not retried forever": (
        "プールまたはクラスタで、このファイルの読み取り・判定によりワーカープロセスが単独で繰り返"
        "し終了した（クラッシュ、ワーカーのメモリ上限）：報告し、際限なく再試行はしない",
        "在进程池或集群中，读取或判定该文件使工作进程单独且反复退出（崩溃、工作进程的内存上限）："
        "予以报告，不无限重试"),
    "a file of a known format's shape that is none of the variants mjlog reads (tenhou.net/6 "
    "with tiles as strings, Mahjong Soul's messages left as binary): one diagnostic, not one per "
    "value": (
        "既知の形式の形だが、mjlogが読むどの変種でもないファイル（牌を文字列で書いたtenhou.net/6"
        "、バイナリのまま残った雀魂のメッセージ）：診断は値ごとではなく1件",
        "具有已知格式的外形、但不属于mjlog能读取的任何变体的文件（用字符串表示牌的tenhou.net/6、"
        "仍为二进制的雀魂消息）：只报告一条诊断，而非每个值一条"),
    "the target format cannot hold this game (a Taiwanese game in tenhou.net/6 or mjai), or its "
    "writer failed (a bug in mjlog, reported with the exception); nothing is written for it": (
        "出力形式がこの対局を表せない（tenhou.net/6やmjaiでの台湾麻雀の対局）、または書き出しが失"
        "敗した（mjlogの不具合、例外とともに報告）；この対局は何も書かない",
        "目标格式无法容纳该对局（tenhou.net/6或mjai中的台湾麻将对局），或写出失败（mjlog的缺陷，"
        "附带异常信息报告）；该对局不写出任何内容"),
    "malformed XML; what parses before it is read": (
        "不正なXML：それより前に解析できた分は読む",
        "格式错误的XML：读取其之前能解析的部分"),
    "a document type declaration, not read: nothing it names is opened and its entities stay "
    "undefined": (
        "文書型宣言は読まない：そこで指定されたものは開かず、実体は未定義のまま",
        "文档类型声明，不读取：不打开其引用的任何内容，其实体保持未定义"),
    "XML, but not a Tenhou mjlog document": (
        "XMLだが天鳳のmjlog文書ではない",
        "是XML，但不是天凤的mjlog文档"),
    "an element that cannot be read; it is skipped": (
        "読めない要素：読み飛ばす",
        "无法读取的元素：跳过"),
    "an element mjlog does not know, kept as an unknown event": (
        "mjlogが知らない要素：不明なイベントとして残す",
        "mjlog不认识的元素：作为未知事件保留"),
    "no <GO> element: the table's rules are guessed": (
        "<GO>要素がない：卓のルールは推測する",
        "没有<GO>元素：推测牌桌规则"),
    "a round that ends without a win or draw": (
        "和了も流局もなく終わる局",
        "没有和牌也没有流局就结束的局"),
    "the record stops before its game end; what came before is replayed": (
        "記録が終局前に途切れている：それまでの分を再生する",
        "记录在对局结束前中断：回放此前的内容"),
    "an empty owari: the game's final scores are not stated": (
        "空のowari：対局の最終持ち点が記されていない",
        "空的owari：未记载对局的最终点数"),
    "a line (or document) that is not JSON": (
        "JSONではない行（または文書）",
        "不是JSON的行（或文档）"),
    "a JSON value that does not fit its event, with its JSON path": (
        "イベントに合わないJSONの値（JSONパス付き）",
        "与事件不符的JSON值（附JSON路径）"),
    "events before any game start": ("対局開始より前のイベント", "对局开始之前的事件"),
    "an mjai event of a dialect mjlog does not read": (
        "mjlogが読まない方言のmjaiイベント",
        "mjlog不读取的方言的mjai事件"),
    "per-event bot annotations (logs, meta) not kept": (
        "イベントごとのbotの注釈（logs、meta）は残さない",
        "不保留每个事件上的bot注释（logs、meta）"),
    "the log ends with an error event (a bot broke the game)": (
        "ログがerrorイベントで終わる（botが対局を壊した）",
        "日志以error事件结束（bot破坏了对局）"),
    "a value of the wrong type or range, with its JSON path": (
        "型または範囲の誤った値（JSONパス付き）",
        "类型或范围错误的值（附JSON路径）"),
    "no order of a round's moves places them all; the round is not read": (
        "局の手をすべて並べられる順序がない：その局は読まない",
        "没有任何顺序能排下该局的所有行动：不读取该局"),
    "two orders of a round's moves fit; the first is taken": (
        "局の手の並べ方が2通り当てはまる：最初のものを採る",
        "该局行动有两种顺序都吻合：采用第一种"),
    "the order of moves the format leaves out was deduced": (
        "形式が省いている手の順序を推定した",
        "推断出了格式省略的行动顺序"),
    "a round without a result": ("結果のない局", "没有结果的局"),
    "a result word mjlog does not know": ("mjlogが知らない結果の語", "mjlog不认识的结果用语"),
    "a yaku name mjlog does not know, kept as written (in notation, with the closest known "
    "names)": (
        "mjlogが知らない役名：書かれたまま残す（記譜法では近い既知の名前を添える）",
        "mjlog不认识的役名：按原文保留（记谱法中附上最接近的已知名称）"),
    "the game was read from a tenhou.net viewer link in a text (a converter's report)": (
        "テキスト中のtenhou.netビューアのリンクから対局を読んだ（変換ツールのレポート）",
        "从文本中的tenhou.net查看器链接读取了对局（转换工具的报告）"),
    "JSON that is not a game record of its platform (no head and messages, or a list of round "
    "events without its game)": (
        "そのプラットフォームの牌譜ではないJSON（headとメッセージがない、または対局のない局イベン"
        "トの列）",
        "不是该平台牌谱的JSON（没有head和消息，或是缺少对局的局事件列表）"),
    "a message mjlog does not read, passed over": (
        "mjlogが読まないメッセージ：読み飛ばす",
        "mjlog不读取的消息：跳过"),
    "bytes of Mahjong Soul's binary record that are not the message expected, with their offset; "
    "the messages before them are read": (
        "雀魂のバイナリ記録のうち期待したメッセージでないバイト（オフセット付き）：それより前のメ"
        "ッセージは読む",
        "雀魂二进制记录中不是预期消息的字节（附偏移量）：读取其之前的消息"),
    "the players voted to end the game in this round: it has no result": (
        "この局でプレイヤーの投票により対局が終了した：結果はない",
        "玩家在该局投票结束了对局：没有结果"),
    "a friend room's rules mjlog does not know (open riichi, luck points, yakitori): wins and "
    "payments under them are not verified": (
        "mjlogが知らない友人戦のルール（オープン立直、祝儀、焼き鳥）：それによる和了と支払いは検"
        "証しない",
        "mjlog不认识的友人场规则（明牌立直、祝仪、烧鸡）：不核实这些规则下的和牌与支付"),
    "a tsumo win whose draw the record leaves out: the winning hand's last tile is drawn there": (
        "記録がツモを省いているツモ和了：和了形の最後の牌をそこでツモしたとする",
        "记录中省略了摸牌的自摸和牌：视为在该处摸到和牌型的最后一张牌"),
    "a key spelled otherwise than the format's (\"playerr\"), read where it is": (
        "形式と異なる綴りのキー（\"playerr\"）：その場所で読む",
        "拼写与格式不同的键（\"playerr\"）：在原处读取"),
    "the first line is not 'mjlog-notation 1'": (
        "最初の行が'mjlog-notation 1'ではない",
        "第一行不是'mjlog-notation 1'"),
    "a header line that cannot be read": ("読めないヘッダ行", "无法读取的头部行"),
    "a round header or hands line that cannot be read": (
        "読めない局ヘッダまたは配牌の行",
        "无法读取的局头或配牌行"),
    "a move that cannot be read": ("読めない手", "无法读取的行动"),
    "a tile that cannot be read": ("読めない牌", "无法读取的牌"),
    "an ids line that does not fit the tiles named": (
        "記した牌に合わないids行",
        "与所写牌不符的ids行"),
    "a result line that cannot be read": ("読めない結果行", "无法读取的结果行"),
    "a win written without its fu and points: mjlog valued it (the note shows the value)": (
        "符と点数なしで書かれた和了：mjlogが計算した（注記にその値を示す）",
        "未写符数和点数的和牌：由mjlog计算（备注中给出该值）"),
    # the replay, the wall check and the audit (findings)
    "a discarded tile is not among the player's tiles": (
        "打牌がそのプレイヤーの手牌にない",
        "打出的牌不在该玩家手中"),
    "tiles a call uses from hand are not there": (
        "鳴きで手牌から使う牌が手牌にない",
        "副露要从手牌中使用的牌不在手中"),
    "a chi, pon or open kan takes a tile that is not the last discard, or from the wrong player": (
        "チー・ポン・大明槓が直前の捨て牌でない牌、または違うプレイヤーの牌を取る",
        "吃、碰或大明杠取的不是最后打出的牌，或取自错误的玩家"),
    "a draw, discard, call or 天聽 declaration when it is not that player's move": (
        "そのプレイヤーの手番でないときのツモ・打牌・鳴き・天聴宣言",
        "不是该玩家行动时的摸牌、打牌、副露或天听宣告"),
    "one physical tile is dealt, drawn or shown twice": (
        "同じ1枚の牌が2度配られ・ツモられ・晒される",
        "同一张实体牌被发、摸或亮出两次"),
    "a draw when the live wall is empty": ("ツモ山が尽きた後のツモ", "牌山已摸完时的摸牌"),
    "the winning hand in the record is not the hand the replay holds": (
        "記録の和了形が再生で得た手牌と違う",
        "记录中的和牌型与回放所得手牌不同"),
    "a round starts with other scores than the last ended with": (
        "局の開始時の持ち点が前局終了時と違う",
        "局开始时的点数与上一局结束时不同"),
    "a round starts with other riichi sticks than the table holds": (
        "局の開始時の供託が卓上の立直棒の本数と違う",
        "局开始时的立直棒数与桌上的不同"),
    "scores recorded after a riichi deposit differ": (
        "立直の供託後に記録された持ち点が違う",
        "立直供托后记录的点数不符"),
    "a result's scores before payment differ from the table's": (
        "結果の支払い前の持ち点が卓上と違う",
        "结果中支付前的点数与桌上的不同"),
    "a result's deltas do not add up to the riichi sticks collected": (
        "結果の点数移動の合計が回収した供託と合わない",
        "结果的点数变动之和与收取的立直棒不符"),
    "recorded scores after a round differ": ("局後に記録された持ち点が違う", "局后记录的点数不符"),
    "the game's final scores differ from the replay's": (
        "対局の最終持ち点が再生と違う",
        "对局的最终点数与回放不同"),
    "an event that cannot apply to this table at all (a seat or tile id outside it)": (
        "この卓にはまったく適用できないイベント（卓にない席または牌ID）",
        "完全无法应用于该牌桌的事件（超出牌桌的座位或牌ID）"),
    "tiles nobody wrote down: tile checks cover the tiles named": (
        "誰も記録しなかった牌：牌の検査は記された牌だけが対象",
        "无人记录的牌：牌的检查只涵盖已记录的牌"),
    "the engine, a check or an observer failed on an event that fits the table: a bug in mjlog, "
    "reported with who failed and the exception": (
        "卓に合うイベントでエンジン・検査・オブザーバーが失敗した：mjlogの不具合（失敗したものと"
        "例外とともに報告）",
        "引擎、检查或观察器在符合牌桌的事件上失败：mjlog的缺陷（附带失败者与异常信息报告）"),
    "a seat's dealt hand is not the one the wall deals": (
        "席の配牌が牌山から配られるものと違う",
        "座位的配牌与牌山所发的不同"),
    "the recorded dice differ from the shuffle's": (
        "記録のサイコロが洗牌のものと違う",
        "记录的骰子与洗牌结果不同"),
    "a dora indicator (first or after a kan) differs": (
        "ドラ表示牌（最初、またはカン後）が違う",
        "宝牌指示牌（最初的或开杠后的）不同"),
    "a draw from the live wall is not the wall's tile": (
        "ツモ山からのツモが牌山の牌と違う",
        "从牌山摸的牌不是牌山中的那张"),
    "a replacement draw is not the wall's tile": (
        "嶺上牌のツモが牌山の牌と違う",
        "岭上摸牌不是牌山中的那张"),
    "an ura indicator shown at a win differs": (
        "和了時の裏ドラ表示牌が違う",
        "和牌时亮出的里宝牌指示牌不同"),
    "a stated wall and dice that cannot be dealt, or a published wall that cannot be read": (
        "配ることのできない牌山とサイコロの記載、または読めない公開牌山",
        "无法发牌的牌山与骰子记载，或无法读取的公开牌山"),
    "a published wall that is not the one the round committed to before it was played (its md5 "
    "or salted sha256 differs)": (
        "局が開始前にコミットしたものと違う公開牌山（md5またはソルト付きsha256が違う）",
        "与该局开局前承诺的不一致的公开牌山（md5或加盐sha256不同）"),
    "a published wall without a commitment that can be checked (none given, or a salt not "
    "revealed): its tiles are still compared (one per record)": (
        "検証できるコミットメントのない公開牌山（提示なし、またはソルト非公開）：牌の比較は行う（"
        "記録ごとに1件）",
        "没有可核验承诺的公开牌山（未提供，或盐值未公开）：仍比较其牌（每份记录一条）"),
    "no seed whose shuffle is known and no stated wall (one per round)": (
        "洗牌が既知のシードも記載された牌山もない（局ごとに1件）",
        "既无已知洗牌算法的种子，也无记载的牌山（每局一条）"),
    "the record starts at a later deal of its seed": (
        "記録がそのシードの後の配牌から始まる",
        "记录从其种子的较后一次发牌开始"),
    "--rules names a preset of another rule family or number of players than the record's: the "
    "record is audited under its own ruleset (--force-rules applies the preset)": (
        "--rulesが記録と別のルール系統または人数のプリセットを指定：記録は自身のルールで監査する"
        "（--force-rulesでプリセットを適用）",
        "--rules指定了与记录不同规则体系或人数的预设：记录按其自身规则审查（--force-rules可强制应"
        "用预设）"),
    "a --set option that the record's ruleset (another family) does not have": (
        "記録のルール（別の系統）にない--setオプション",
        "记录的规则（其他体系）没有的--set选项"),
    "a rule check, or a win's value, that a tile nobody wrote down decides: not judged (never a "
    "violation or a mismatch); the note names the check or the win and the unknown tile": (
        "誰も記録しなかった牌で決まるルール検査または和了の価値：判定しない（違反や不一致にはしな"
        "い）；注記に検査または和了と不明な牌を示す",
        "由无人记录的牌决定的规则检查或和牌价值：不判定（绝不算违规或不符）；备注写明该检查或和牌"
        "及未知的牌"),
    "a game with more findings of one kind than an audit keeps (1,000): the first are kept, the "
    "rest counted": (
        "1種類の指摘が監査の保持数（1,000件）を超える対局：最初の分を残し、残りは数える",
        "某类问题超过审查保留上限（1,000条）的对局：保留前面的，其余只计数"),
    # score verification (mismatches)
    "the hand the replay holds is no winning hand with a yaku": (
        "再生で得た手牌が役のある和了形ではない",
        "回放所得手牌不是有役的和牌型"),
    "a yaku (or its han, or a Taiwanese pattern's 台) differs; one per yaku": (
        "役（またはその翻数、台湾麻雀の役の台数）が違う：役ごとに1件",
        "役（或其番数，或台湾麻将牌型的台数）不同：每个役一条"),
    "fu differ": ("符が違う", "符数不同"),
    "total han differ": ("翻数の合計が違う", "总番数不同"),
    "Taiwanese: total 台 differ": ("台湾麻雀：台数の合計が違う", "台湾麻将：总台数不同"),
    "the hand's value differs (ron payment, tsumo total)": (
        "和了点が違う（ロンの支払い、ツモの合計）",
        "和牌点数不同（荣和支付、自摸合计）"),
    "the limit name (mangan … yakuman) differs": ("満貫〜役満の名前が違う", "满贯至役满的名称不同"),
    "the dora indicators the win states are not those shown": (
        "和了が示すドラ表示牌が表示されたものと違う",
        "和牌所述的宝牌指示牌与已亮出的不同"),
    "the liable player (pao) differs": (
        "責任払い（包）のプレイヤーが違う",
        "包牌（责任支付）的玩家不同"),
    "a seat's score change differs; one per seat": (
        "席の点数移動が違う：席ごとに1件",
        "座位的点数变动不同：每个座位一条"),
    "a seat shown tenpai (or not) at an exhaustive draw is not (or is) tenpai on the table": (
        "流局で聴牌（またはノーテン）と示された席が卓上では聴牌でない（または聴牌である）",
        "荒牌流局时显示为听牌（或未听牌）的座位在牌桌上并非听牌（或是听牌）"),
    "nagashi mangan claimed or missed": ("流し満貫の誤申告または見落とし", "流局满贯的误报或遗漏"),
    "a seat's payment at a draw differs": ("流局時の席の支払いが違う", "流局时座位的支付不同"),
    "the next round's dealer, round or honba (連莊) differ": (
        "次局の親・局・本場（連荘）が違う",
        "下一局的庄家、局或本场（连庄）不同"),
    "the game ends where the rules play on (after an abortive draw the round is always played "
    "again)": (
        "ルールでは続行する場面で対局が終わっている（途中流局の後はその局を必ずやり直す）",
        "在规则要求继续的地方对局结束了（途中流局后总是重打该局）"),
    # the rules the checks judge (violations: their citations)
    "Two rons on one tile only where double ron is allowed.": (
        "1枚の牌への2人のロンはダブロンを認めるルールでのみ。",
        "一张牌两人荣和仅限允许双响的规则。"),
    "An abortive draw only when its condition holds and the ruleset has it.": (
        "途中流局はその条件が成立し、ルールにあるときのみ。",
        "仅当条件成立且规则包含时才能途中流局。"),
    "A round whose abortive condition holds ends there (四風連打, 四家立直, 四開槓, 三家和).": (
        "途中流局の条件が成立した局はそこで終わる（四風連打、四家立直、四開槓、三家和）。",
        "途中流局条件成立的局在此结束（四风连打、四家立直、四开杠、三家和）。"),
    "After a kan (or kita) the player draws from the dead wall.": (
        "カン（または北抜き）の後は王牌からツモる。",
        "开杠（或拔北）后从王牌摸牌。"),
    "Each completed kan turns one more dora indicator, at the time the ruleset says.": (
        "カンが成立するごとに、ルールの定める時点でドラ表示牌を1枚めくる。",
        "每完成一次杠，在规则规定的时机多翻一张宝牌指示牌。"),
    "No swap-calling: after a chi or pon, not the same tile (nor the other end of the run, by "
    "ruleset).": (
        "喰い替え禁止：チー・ポンの後に同じ牌（ルールにより順子の反対側も）は切れない。",
        "禁止食替：吃或碰之后不能打出相同的牌（按规则也包括顺子另一端的牌）。"),
    "After riichi the drawn tile is discarded unless it wins or makes a kan.": (
        "立直後は、和了かカンでない限りツモった牌を切る。",
        "立直后除非和牌或开杠，必须打出摸到的牌。"),
    "Riichi needs a closed tenpai hand, the points for the stick and enough tiles left in the "
    "wall.": (
        "立直には門前の聴牌、供託する点棒、牌山の十分な残り枚数が必要。",
        "立直需要门前听牌、支付立直棒的点数和牌山中足够的余牌。"),
    "Chi only from the player on the left; no chi in three-player.": (
        "チーは上家からのみ；三人麻雀ではチーはできない。",
        "只能吃上家的牌；三人麻将不能吃。"),
    "No kan directly after a chi or pon, before its discard.": (
        "チー・ポンの直後、打牌前にカンはできない。",
        "吃或碰之后、打牌之前不能开杠。"),
    "No kan once the live wall is empty.": (
        "ツモ山が尽きたらカンはできない。",
        "牌山摸完后不能开杠。"),
    "At most four kans in a round (variant: a fifth ends it).": (
        "1局のカンは4回まで（変種：5回目で流局）。",
        "一局最多四次杠（变体：第五次杠即流局）。"),
    "After riichi the only call is a closed kan.": (
        "立直後にできる鳴きは暗槓のみ。",
        "立直后唯一可做的副露是暗杠。"),
    "After riichi a closed kan must use the tile just drawn (no okuri-kan).": (
        "立直後の暗槓はツモった牌で行う（送り槓禁止）。",
        "立直后的暗杠必须使用刚摸到的牌（禁止送杠）。"),
    "After riichi a closed kan must keep the waits (or the shape, or is forbidden, by ruleset).": (
        "立直後の暗槓は待ちを変えない（ルールにより形も変えない、または禁止）。",
        "立直后的暗杠不能改变听牌（按规则也不能改变牌型，或完全禁止）。"),
    "Only an added kan may be robbed (variant: thirteen orphans may rob a closed kan).": (
        "槍槓できるのは加槓のみ（変種：国士無双は暗槓も槍槓できる）。",
        "只有加杠可以被抢（变体：国士无双可抢暗杠）。"),
    "No ron on a wait the player has discarded (furiten).": (
        "自分が捨てた待ち牌ではロンできない（フリテン）。",
        "不能荣和自己打过的听牌（振听）。"),
    "No ron after passing a winning tile, until one's next discard (temporary furiten).": (
        "和了牌を見逃した後は、自分の次の打牌までロンできない（同巡内フリテン）。",
        "放过和牌后，到自己下一次打牌前不能荣和（同巡振听）。"),
    "No ron after passing a winning tile while in riichi (riichi furiten).": (
        "立直中に和了牌を見逃した後はロンできない（立直後フリテン）。",
        "立直中放过和牌后不能荣和（立直振听）。"),
    "Furiten also forbids a tsumo win (kansaki extension).": (
        "フリテンはツモ和了も禁じる（完先ルールの拡張）。",
        "振听也禁止自摸和牌（完先规则的扩展）。"),
    "An open hand's first call must carry a yaku of the winning hand, or a yaku must be complete "
    "in its concealed part.": (
        "副露した手の最初の鳴きは和了形の役を含むか、門前部分で役が完成していなければならない。",
        "副露手的第一次副露必须带有和牌型的役，或役须在门前部分完成。"),
    "No win from a tenpai hand with a winning tile that gives no yaku (片和了り; 王手飛車 by "
    "ruleset).": (
        "役のつかない和了牌がある聴牌形からは和了できない（片和了り；ルールにより王手飛車）。",
        "听牌形中若有不带役的和牌，则不能和牌（片和；按规则包括王手飞车）。"),
    "Incidental yaku (海底, 河底, 嶺上, 搶槓, 一発) do not make a win.": (
        "偶然役（海底、河底、嶺上、槍槓、一発）では和了にならない。",
        "偶然役（海底、河底、岭上、抢杠、一发）不能成立和牌。"),
    "A win needs at least one yaku under the ruleset (dora are no yaku).": (
        "和了にはルール上1つ以上の役が必要（ドラは役ではない）。",
        "和牌按规则至少需要一个役（宝牌不是役）。"),
    "A flower is set aside and replaced at once; one kept in hand makes the hand dead (暗相).": (
        "花牌はすぐに抜いて補充する：手牌に残すと死に手になる（暗相）。",
        "花牌须立即补花：留在手中则成为死手（暗相）。"),
    "A flower discarded makes the hand openly dead (明相).": (
        "花牌を捨てると公然と死に手になる（明相）。",
        "打出花牌则公开成为死手（明相）。"),
    "After a chi, no discard of a tile the same two tiles also wait on.": (
        "チーの後、同じ2枚が待つ牌は切れない。",
        "吃牌后，不能打出同样两张牌也在等的牌。"),
    "After a pon, no discard of the same tile.": (
        "ポンの後、同じ牌は切れない。",
        "碰牌后不能打出相同的牌。"),
    "No chi, pon or open kan with three or fewer tiles left in the wall.": (
        "牌山の残りが3枚以下ではチー・ポン・大明槓はできない。",
        "牌山余牌三张或更少时不能吃、碰或大明杠。"),
    "No pon of a tile already discarded earlier in the same go-around.": (
        "同じ巡ですでに捨てられた牌はポンできない。",
        "不能碰同一巡中之前已打出的牌。"),
    "After the deal, flowers are set aside seat by seat from the dealer; a replacement flower "
    "waits for the next go-around.": (
        "配牌後、花牌は親から席順に抜く：補充で来た花牌は次の巡まで待つ。",
        "配牌后从庄家起按座位顺序补花：补到的花牌等到下一巡。"),
    "Only a player with seven flowers may take the eighth (七搶一), where the ruleset plays it.": (
        "8枚目を取れるのは花牌7枚を持つプレイヤーのみ（七搶一）、ルールにある場合。",
        "只有持有七张花牌的玩家才能取第八张（七抢一），限规则包含此项时。"),
    # MCR (Chinese Official) rules
    "A win needs a winning shape: four sets and a pair, seven pairs, thirteen orphans or a "
    "knitted hand; anything else is 错和.": (
        "和了には和了形（4面子1雀頭、七対子、国士無双、全不靠系の形）が必要。それ以外は錯和。",
        "和牌须为和牌型（四副面子加一对将、七对、十三幺或全不靠类牌型），否则为错和。"),
    "A win needs 8 fan (the ruleset's minimum) without the flowers; less is 错和.": (
        "和了には花牌を除いて8番（ルールの最低番数）が必要。不足は錯和。",
        "和牌须有不计花牌的8番（规则规定的起和番），不足即为错和。"),
    "Only an added kong may be robbed; a concealed kong never.": (
        "搶槓できるのは加槓のみ。暗槓は搶槓できない。",
        "只能抢补杠的牌；暗杠不能抢。"),
    "One player wins a discard: the next in turn from the discarder (截和), unless the ruleset "
    "allows double wins.": (
        "1枚の捨て牌で和了できるのは1人：放銃者から順番の近い者（截和）。ダブロンを認めるルールを"
        "除く。",
        "一张打出的牌只能由一人和牌：按出牌者之后顺序最近的玩家（截和），除非规则允许一炮多响。"),
    "A flower is set aside and replaced at once, never kept in hand.": (
        "花牌はすぐに抜いて補充する。手牌に残してはならない。",
        "花牌须立即补花，不得留在手牌中。"),
    "A flower is set aside and replaced, never discarded.": (
        "花牌は抜いて補充する。捨ててはならない。",
        "花牌须补花，不得打出。"),
    "Each flower set aside is replaced from the wall.": (
        "抜いた花牌はそれぞれ牌山から補充する。",
        "每补一张花牌都须从牌墙补摸一张。"),
    "A hand holds 13 tiles after its discard, each kong counting three (相公: it may not win).": (
        "打牌後の手牌は13枚（槓は3枚と数える）。違えば相公で和了できない。",
        "打牌后手牌为13张（杠按3张计）；否则为相公，不能和牌。"),
    "A player who passed a win (過水) may not win until a discard from an incomplete hand or an "
    "added kan.": (
        "和了を見逃したプレイヤー（過水）は、未完成の手からの打牌か加槓まで和了できない。",
        "放过和牌的玩家（过水）在以未完成的手牌打牌或加杠之前不能和牌。"),
    "A win needs five sets and a pair (or 嚦咕嚦咕, 十六不搭, a flower win): anything else is "
    "詐胡.": (
        "和了には5面子1雀頭（または嚦咕嚦咕、十六不搭、花和了）が必要：それ以外は詐胡。",
        "和牌需要五组面子加一对将（或呖咕呖咕、十六不搭、花胡）：否则为诈胡。"),
    "A dead hand (暗相, 明相) may not win.": (
        "死に手（暗相、明相）は和了できない。",
        "死手（暗相、明相）不能和牌。"),
    "No tsumo win on the replacement chain of an open kan.": (
        "大明槓の嶺上の連鎖ではツモ和了できない。",
        "大明杠的岭上连锁中不能自摸和牌。"),
    "a record that states no rules (no detail_rule: the binary form alone): red fives are read "
    "from the walls, none when no round's wall or deal holds one, else the platform's": (
        "ルールを記載しない記録（detail_ruleなし：バイナリのみ）：赤ドラは山から読む。どの局の山や"
        "配牌にもなければ赤なし、あればプラットフォームの既定",
        "未注明规则的记录（无detail_rule：仅二进制）：赤宝牌从牌山读出，所有局的牌山和配牌都没有则无赤，"
        "否则按平台默认"),
    "a line of a score sheet that cannot be read, at its line and column; it is left out": (
        "読めない点数表の行（行と列を示す）：その行は除く",
        "无法读取的计分表行（注明行和列）：该行不计"),
    "a line of a Botzone match that cannot be read, at its line and column; it is left out": (
        "読めないBotzone対局の行（行と列を示す）：その行は除く",
        "无法读取的Botzone对局行（注明行和列）：该行不计"),
    "a Botzone move that does not fit the tiles read (a claim with no discard to take, a "
    "fifth copy of a tile); it is left out": (
        "読んだ牌と合わないBotzoneの手（取る打牌のない鳴き、5枚目の牌）：その手は除く",
        "与已读牌不符的Botzone行动（没有可吃碰的打牌、第五张牌）：该行动不计"),
    "a score sheet's chombo: the hand ends there, and the settlement charges the ruleset's "
    "chombo to its offender": (
        "点数表のチョンボ：その局はそこで終わり、精算がルールのチョンボを違反者に科す",
        "计分表上的错和（チョンボ）：该局到此结束，结算按规则向违规者收取错和罚分"),
    "a game's record or sheet that is missing, of no format mjlog reads, or without the game "
    "the event file names": (
        "対局の記録か点数表がない、mjlogが読めない形式、または大会ファイルが指す対局を含まない",
        "对局的记录或计分表缺失、格式mjlog无法读取，或不含赛事文件所指的对局"),
    "a game that does not reach its end: no final points, it counts for nobody": (
        "最後まで終わらない対局：最終ポイントがなく、誰の成績にも数えない",
        "未打完的对局：没有最终分数，不计入任何人的成绩"),
    "the audit found violations, score mismatches or errors in a game (the referee's report "
    "shows each; the settlement corrects payments and chombo)": (
        "監査が対局に違反、点数の不一致または誤りを見つけた（審判レポートに各々を示す。精算が支"
        "払いとチョンボを正す）",
        "审核在对局中发现违规、点数不符或错误（裁判报告逐一列出；结算更正支付和错和）"),
    "a name in a game that is no player's name or alias": (
        "どの選手の名前・別名でもない対局中の名前",
        "对局中不属于任何选手姓名或别名的名字"),
    "a game's tile record and score sheet seat other players or give other final points": (
        "対局の牌譜と点数表で選手の席か最終ポイントが異なる",
        "对局的牌谱与计分表的选手座位或最终分数不同"),
    "a game's final scores (with the riichi sticks left on the table) do not add up to what "
    "the table started with, or its points (before chombo penalties) not to zero": (
        "対局の最終持ち点（卓に残った供託を含む）が開始時の合計にならない、またはポイント（チョン"
        "ボの罰符の前）の合計が0でない",
        "对局的最终点数（含桌上剩余的立直棒）之和不等于开局时的总数，或分数（错和罚分前）之和不为零"),
    "a game's players are not those of its table in the schedule, or no table of the schedule "
    "has them": (
        "対局の選手が組み合わせ表の卓の選手と違う、または組み合わせ表のどの卓にも合わない",
        "对局的选手与赛程中该桌的选手不同，或赛程中没有一桌是他们"),
    "a player at two tables (or two seats) of one round, in the schedule or in the games "
    "played": (
        "一つの回戦で二つの卓（または二つの席）にいる選手（組み合わせ表か実際の対局で）",
        "同一轮中出现在两桌（或两个座位）的选手（在赛程或实际对局中）"),
    "a game with more moves than a replay page draws (50,000; a whole game has about 1,500): "
    "the page stops there and says how many it left out; the audit judges them all": (
        "再生ページが描く手数（50,000。1対局はおよそ1,500）を超える対局：ページはそこで止まり、"
        "省いた数を示す。監査はすべてを判定する",
        "超过回放页面所绘步数（50,000；一局约1,500步）的对局：页面到此为止并注明省略的步数；"
        "审核判定全部步数"),
    "a player's games played are not as many as the schedule gives them": (
        "選手の対局数が組み合わせ表の数と違う",
        "选手的对局数与赛程安排的不同"),
}
"""The findings' titles: each code's meaning (:mod:`mjlog.core.catalogue`) and each rule's
citation (the checks' :class:`~mjlog.families.check.Rule`), keyed by their English."""

REFEREE: Final[dict[str, Entry]] = {
    "Audit of {n} games": ("{n}対局の監査", "{n}场对局的审查"),
    "Summary": ("概要", "概要"),
    "files read": ("読んだファイル", "已读文件"),
    "games": ("対局", "对局"),
    "{n} complete, {r} rounds": ("完了{n}、{r}局", "完整{n}场，{r}局"),
    "wins verified": ("検証した和了", "已核实的和牌"),
    "draws verified": ("検証した流局", "已核实的流局"),
    "{a} of {b}": ("{a} / {b}", "{a} / {b}"),
    "rule violations": ("ルール違反", "违规"),
    "score mismatches": ("点数の不一致", "点数不符"),
    "games shown below": ("以下に示す対局", "下列对局"),
    "files unreadable": ("読めないファイル", "无法读取的文件"),
    "unreadable: {path}: {why}": ("読めない：{path}：{why}", "无法读取：{path}：{why}"),
    "game {n}": ("第{n}対局", "第{n}场"),
    "judged under {ruleset}": ("{ruleset}で判定", "按{ruleset}判定"),
    "replay this game": ("この対局を再生", "回放本场对局"),
    "notes in the replay: {n}": ("再生ページの注記：{n}件", "回放中的备注：{n}条"),
    "open the replay at this move": ("この手から再生", "从此步打开回放"),
    "The table at this move is drawn above.": ("この手の卓は上に示した。", "此步的牌桌见上方。"),
    "the table at this move": ("この手の卓", "此步的牌桌"),
    "Who owes what": ("精算", "结算"),
    "the record": ("記録全体", "整份记录"),
    "nothing to settle (no round was read)": (
        "精算なし（読めた局がない）",
        "无需结算（未读取到任何局）"),
    "{games} games ({complete} complete), {rounds} rounds: {clean} clean, {problems} with "
    "problems": (
        "{games}対局（完了{complete}）、{rounds}局：問題なし{clean}、問題あり{problems}",
        "{games}场对局（完整{complete}场），{rounds}局：无问题{clean}场，有问题{problems}场"),
    "{n} with errors or warnings in the record": ("記録のエラー・警告{n}", "记录有错误或警告{n}场"),
    "{n} with rule violations": ("ルール違反{n}", "违规{n}场"),
    "{n} with score mismatches": ("点数の不一致{n}", "点数不符{n}场"),
    "(recorded {n})": ("（記録 {n}）", "（记录 {n}）"),
    "{n} points": ("{n}点", "{n}点"),
    "{pts} final points": ("{pts}ポイント", "{pts}得点"),
    "is owed {n}": ("{n}受け取り", "应收{n}"),
    "owes {n}": ("{n}支払い", "应付{n}"),
    "even": ("差し引きなし", "持平"),
    "{change} over the rounds recorded": ("記録された局で{change}", "记录各局合计{change}"),
    "and loses {n} points at the game's end": ("終局時に{n}ポイント減", "终局时扣{n}得点"),
    "(bust)": ("（飛び）", "（被飞）"),
    # singular forms (Japanese and Chinese have none of their own)
    "Audit of {n} game": ("{n}対局の監査", "{n}场对局的审查"),
    "{n} complete, {r} round": ("完了{n}、{r}局", "完整{n}场，{r}局"),
    # one card per result whose payment is wrong, in words
    "{who} was paid {r}; {c} is due.": ("{who}の受け取りは{r}点、正しくは{c}点。",
                                        "{who}收取{r}点，应为{c}点。"),
    "{who} paid {r}; {c} was due.": ("{who}の支払いは{r}点、正しくは{c}点。",
                                     "{who}支付{r}点，应为{c}点。"),
    "{who}'s score changed by {r}; {c} is due.": ("{who}の収支は{r}点、正しくは{c}点。",
                                                  "{who}的点数变动为{r}点，应为{c}点。"),
    "The hand was valued at {r}; it is worth {c}.": ("和了点は{r}点と記録、正しくは{c}点。",
                                                     "和牌点数记为{r}点，应为{c}点。"),
    "The record says {field} {r}; it is {c}.": ("記録では{field}{r}、正しくは{c}。",
                                                "记录为{field}{r}，应为{c}。"),
    "The payments written do not add up to the riichi sticks collected.": (
        "記録された収支の合計が受け取った供託と合わない。",
        "记录的点数变动合计与收取的供托不符。"),
    "Basis: {what}.": ("根拠：{what}。", "依据：{what}。"),
    "non-dealer": ("子", "闲家"),
    "ron from {who}": ("{who}からロン", "荣和，{who}放铳"),
    "ready: {names}": ("聴牌：{names}", "听牌：{names}"),
    "chombo by {who}": ("{who}のチョンボ", "{who}错和"),
    "riichi: {names}": ("立直：{names}", "立直：{names}"),
    "as the audit wrote it": ("監査の出力そのまま", "审查的原始输出"),
    "field": ("項目", "项目"),
    "message": ("説明", "说明"),
    "round wind": ("場風", "场风"),
    "round number": ("局数", "局数"),
    "{field}: written {r}, due {c}": ("{field}：記録は{r}、正しくは{c}",
                                      "{field}：记录为{r}，应为{c}"),
    "{round}: player {p}'s payment corrected from {r} to {c} (the computed value)": (
        "{round}：プレイヤー{p}の収支を{r}から{c}に訂正（計算値）",
        "{round}：玩家{p}的点数变动由{r}更正为{c}（计算值）"),
    "{n} points of riichi sticks left on the table go to the first place, player {p}": (
        "場に残った供託{n}点はトップのプレイヤー{p}へ",
        "场上剩余的供托{n}点归第一名玩家{p}"),
    # the score sheet (a results-only game's running scores, and a tile record's)
    "Score sheet": ("点数表", "计分表"),
    "round": ("局", "局"),
    "line": ("行", "行"),
    "result": ("結果", "结果"),
    "hand value": ("打点", "和牌点数"),
    "corrections": ("訂正", "更正"),
    "start": ("開始時", "开局"),
    "final scores": ("最終持ち点", "最终点数"),
    "final points (uma and oka included)": ("最終ポイント（ウマ・オカ込み）",
                                            "最终得点（含马和顶）"),
    "chombo penalty after uma": ("ウマの後のチョンボ罰符", "马之后的错和罚分"),
    "other corrections of the settlement (below)": ("精算でのその他の訂正（下記）",
                                                    "结算中的其他更正（见下）"),
    "Each cell: the hand's payment, then the score after it; red: the computed value where "
    "the record differs.": (
        "各欄：その局の収支、その下に局後の持ち点。赤：記録と異なる箇所の計算値。",
        "每格：该局的点数变动，下方为局后点数。红色：与记录不符处的计算值。"),
    "Final points: (score − {ret}) ÷ 1,000, plus uma {uma}; the first place takes the oka.": (
        "最終ポイント：（持ち点 − {ret}）÷ 1,000 にウマ {uma} を加える。オカはトップが取る。",
        "最终得点：（点数 − {ret}）÷ 1,000，加上马 {uma}；顶归第一名。"),
}
"""The referee's page (``mjlog audit --format html``): its fixed words."""

STATS: Final[dict[str, Entry]] = {
    "mjlog statistics": ("mjlog 統計", "mjlog 统计"),
    "this group": ("このグループ", "本组"),
    "all players": ("全プレイヤー", "全体玩家"),
    "placement": ("順位", "顺位"),
    "share of games": ("対局の割合", "对局占比"),
    "% (95% interval; red: all players)": (
        "%（95%区間；赤：全プレイヤー）",
        "%（95%区间；红：全体玩家）"),
    "win rate": ("和了率", "和牌率"),
    "deal in rate": ("放銃率", "放铳率"),
    "riichi rate": ("立直率", "立直率"),
    "call rate": ("副露率", "副露率"),
    "average win": ("平均打点", "平均打点"),
    "average deal in": ("平均放銃", "平均放铳"),
    "average placement": ("平均順位", "平均顺位"),
    "stable dan": ("安定段位", "安定段位"),
    "% of rounds": ("局に対する%", "占局数的%"),
    "games (in date order)": ("対局（日付順）", "对局（按日期）"),
    "cumulative points": ("累積ポイント", "累计得点"),
    "cumulative final score": ("最終持ち点の累積", "累计最终点数"),
    "% of wins with this yaku": ("この役を含む和了の%", "含此役的和牌占比%"),
    "riichi turn": ("立直巡目", "立直巡目"),
    "win turn": ("和了巡目", "和牌巡目"),
    "own turn (own discards)": ("自分の巡目（自分の打牌数）", "自家巡目（自家打牌数）"),
    "% of riichi / wins": ("立直・和了に対する%", "占立直/和牌的%"),
    "placement distribution (dots: all players)": (
        "順位分布（点：全プレイヤー）",
        "顺位分布（点：全体玩家）"),
    "headline rates with 95% intervals": ("主要な率と95%区間", "主要比率及95%区间"),
    "win and deal-in rate by month": ("月別の和了率と放銃率", "按月的和牌率与放铳率"),
    "points over games": ("対局ごとのポイント推移", "得点走势"),
    "yaku frequencies (dora not counted)": ("役の出現率（ドラは数えない）", "役种频率（不计宝牌）"),
    "riichi and win turn distributions": ("立直と和了の巡目分布", "立直与和牌的巡目分布"),
    "{caption}: nothing to draw.": ("{caption}：描くものがない。", "{caption}：无可绘制的内容。"),
    "metric": ("指標", "指标"),
    "this group (95% interval)": ("このグループ（95%区間）", "本组（95%区间）"),
    "{games} games, {rounds} rounds": ("{games}対局、{rounds}局", "{games}场对局，{rounds}局"),
    "{n} more groups not drawn (--report-limit).": (
        "ほかに{n}グループは描いていない（--report-limit）。",
        "另有{n}组未绘制（--report-limit）。"),
}
"""The statistics report (``mjlog stats --report``): its fixed words and the headline
metrics' names."""

FANS: Final[dict[str, Entry]] = {
    "big-four-winds": ("大四喜", "大四喜"),
    "big-three-dragons": ("大三元", "大三元"),
    "all-green": ("緑一色", "绿一色"),
    "nine-gates": ("九蓮宝燈", "九莲宝灯"),
    "four-kongs": ("四槓子", "四杠"),
    "seven-shifted-pairs": ("連七対", "连七对"),
    "thirteen-orphans": ("国士無双", "十三幺"),
    "all-terminals": ("清老頭", "清幺九"),
    "little-four-winds": ("小四喜", "小四喜"),
    "little-three-dragons": ("小三元", "小三元"),
    "all-honors": ("字一色", "字一色"),
    "four-concealed-pungs": ("四暗刻", "四暗刻"),
    "pure-terminal-chows": ("一色双龍会", "一色双龙会"),
    "quadruple-chow": ("一色四同順", "一色四同顺"),
    "four-pure-shifted-pungs": ("一色四節高", "一色四节高"),
    "four-pure-shifted-chows": ("一色四歩高", "一色四步高"),
    "three-kongs": ("三槓子", "三杠"),
    "all-terminals-and-honors": ("混老頭", "混幺九"),
    "seven-pairs": ("七対子", "七对"),
    "greater-honors-and-knitted-tiles": ("七星不靠", "七星不靠"),
    "all-even-pungs": ("全双刻", "全双刻"),
    "full-flush": ("清一色", "清一色"),
    "pure-triple-chow": ("一色三同順", "一色三同顺"),
    "pure-shifted-pungs": ("一色三節高", "一色三节高"),
    "upper-tiles": ("全大", "全大"),
    "middle-tiles": ("全中", "全中"),
    "lower-tiles": ("全小", "全小"),
    "pure-straight": ("一気通貫", "清龙"),
    "three-suited-terminal-chows": ("三色双龍会", "三色双龙会"),
    "pure-shifted-chows": ("一色三歩高", "一色三步高"),
    "all-fives": ("全帯五", "全带五"),
    "triple-pung": ("三色同刻", "三同刻"),
    "three-concealed-pungs": ("三暗刻", "三暗刻"),
    "lesser-honors-and-knitted-tiles": ("全不靠", "全不靠"),
    "knitted-straight": ("組合龍", "组合龙"),
    "upper-four": ("大於五", "大于五"),
    "lower-four": ("小於五", "小于五"),
    "big-three-winds": ("三風刻", "三风刻"),
    "mixed-straight": ("花龍", "花龙"),
    "reversible-tiles": ("推不倒", "推不倒"),
    "mixed-triple-chow": ("三色同順", "三色三同顺"),
    "mixed-shifted-pungs": ("三色三節高", "三色三节高"),
    "chicken-hand": ("無番和", "无番和"),
    "last-tile-draw": ("海底摸月", "妙手回春"),
    "last-tile-claim": ("河底撈魚", "海底捞月"),
    "out-with-replacement-tile": ("嶺上開花", "杠上开花"),
    "robbing-the-kong": ("槍槓", "抢杠和"),
    "all-pungs": ("対々和", "碰碰和"),
    "half-flush": ("混一色", "混一色"),
    "mixed-shifted-chows": ("三色三歩高", "三色三步高"),
    "all-types": ("五門斉", "五门齐"),
    "melded-hand": ("全求人", "全求人"),
    "two-concealed-kongs": ("双暗槓", "双暗杠"),
    "two-dragon-pungs": ("双箭刻", "双箭刻"),
    "outside-hand": ("全帯幺", "全带幺"),
    "fully-concealed-hand": ("不求人", "不求人"),
    "two-melded-kongs": ("双明槓", "双明杠"),
    "last-tile": ("和絶張", "和绝张"),
    "dragon-pung": ("箭刻", "箭刻"),
    "prevalent-wind": ("圏風刻", "圈风刻"),
    "seat-wind": ("門風刻", "门风刻"),
    "concealed-hand": ("門前清", "门前清"),
    "all-chows": ("平和", "平和"),
    "tile-hog": ("四帰一", "四归一"),
    "double-pung": ("双同刻", "双同刻"),
    "two-concealed-pungs": ("双暗刻", "双暗刻"),
    "concealed-kong": ("暗槓", "暗杠"),
    "all-simples": ("断幺九", "断幺"),
    "pure-double-chow": ("一盃口", "一般高"),
    "mixed-double-chow": ("喜相逢", "喜相逢"),
    "short-straight": ("連六", "连六"),
    "two-terminal-chows": ("老少副", "老少副"),
    "pung-of-terminals-or-honors": ("幺九刻", "幺九刻"),
    "melded-kong": ("明槓", "明杠"),
    "one-voided-suit": ("缺一門", "缺一门"),
    "no-honors": ("無字", "无字"),
    "edge-wait": ("辺張", "边张"),
    "closed-wait": ("嵌張", "坎张"),
    "single-wait": ("単騎", "单钓将"),
    "self-drawn": ("自摸", "自摸"),
    "flower-tiles": ("花牌", "花牌"),
    "concealed-kong-and-melded-kong": ("明暗槓", "明暗杠"),
}
"""The Chinese Official (MCR) fans by their notation words
(:data:`mjlog.families.mcr.scorer.FAN_POINTS`: the 81 of the rules and the one the
counting library adds): in Japanese the riichi name where the fan is the same hand
(国士無双, 対々和), else the Chinese name in Japanese characters; in Chinese the official
names (大四喜, 清一色)."""

SECTIONS: Final[dict[str, dict[str, Entry]]] = {
    "yaku": YAKU, "patterns": PATTERNS, "fans": FANS, "results": RESULTS, "table": TABLE,
    "tiles": TILES, "viewer": VIEWER, "titles": TITLES, "referee": REFEREE, "stats": STATS,
}
"""Every section by name. A key in two sections has the same translations in both."""

PAGE_SECTIONS: Final = ("results", "table", "tiles", "viewer")
"""The sections a replay page carries whole (of the others, only its game's yaku, patterns,
fans and findings' titles: :func:`page_words`)."""

_NAMED_SECTIONS: Final = ("yaku", "patterns", "fans", "titles")

_SEPARATORS: Final = {"en": ", ", "ja": "、", "zh": "，"}

_NUMBER: Final = r"[-+]?[\d,]+(?:\.\d+)?"
_FIELDS: Final = {
    **dict.fromkeys(("n", "k", "r", "p", "h", "a", "b", "han", "fu", "games", "complete",
                     "rounds", "clean", "problems", "pts", "change"), _NUMBER),
    "tile": r"[0-9?][0-9mpszf?]*", "tiles": r"[0-9?][0-9mpszf?]*",
    "wind": "East|South|West|North",
}
"""What a field of a key can hold when :func:`phrase` reads a text back (by its name;
any other field: any text)."""


def words(lang: str, sections: tuple[str, ...] | None = None) -> dict[str, str]:
    """English phrase → its translation into ``lang``, from ``sections`` (default: all);
    empty for English (the key is the English). Raises ``ValueError`` for a language not
    in :data:`LANGS`; it adds no word of its own."""
    return dict(_words(lang, tuple(SECTIONS) if sections is None else sections))


@cache
def _words(lang: str, sections: tuple[str, ...]) -> dict[str, str]:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGS)}")
    if lang == "en":
        return {}
    column = LANGS.index(lang) - 1
    return {key: pair[column] for name in sections for key, pair in SECTIONS[name].items()}


def page_words(lang: str, used: Iterable[str] = ()) -> dict[str, str]:
    """The words a replay page carries for ``lang``: the sections of
    :data:`PAGE_SECTIONS` whole, and of the yaku, patterns and findings' titles only those
    in ``used`` (the game's own); empty for English."""
    table = dict(_words(lang, PAGE_SECTIONS))
    if table:
        named = _words(lang, _NAMED_SECTIONS)
        table.update((k, named[k]) for k in used if k in named)
    return table


def t(text: str, lang: str, /, **fields: object) -> str:
    """``text`` in ``lang`` (as it is when no translation is known), with ``fields`` filled
    into its braces. It does not read a filled text back: :func:`phrase` does."""
    out = _words(lang, tuple(SECTIONS)).get(text, text)
    return out.format(**fields) if fields else out


def phrase(text: str, lang: str, depth: int = 2) -> str:
    """A whole text in ``lang``: its translation when it is a key, else the translation of
    the first key with fields it was written from (``"furiten: waits on 36m, discarded"``),
    each field's value translated in turn (``depth`` levels). A text no key wrote stays as
    it is; tile codes and names in it are never changed."""
    if lang == "en":
        return text
    table = _words(lang, tuple(SECTIONS))
    if text in table:
        return table[text]
    for pattern, key in _templates():
        m = pattern.fullmatch(text)
        if m is not None:
            found = {k: phrase(v, lang, depth - 1) if depth > 0 else v
                     for k, v in m.groupdict().items()}
            return table.get(key, key).format(**found)
    return text


@cache
def _templates() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each key with fields as a pattern that reads a text written from it, the longest
    keys first (the most specific)."""
    out = []
    for key in sorted({k for s in SECTIONS.values() for k in s if "{" in k}, key=len,
                      reverse=True):
        parts = re.split(r"\{(\w+)\}", key)
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>{_FIELDS.get(p, '.+?')})"
                        for i, p in enumerate(parts))
        out.append((re.compile(regex, re.DOTALL), key))
    return tuple(out)


def place_text(place: str, lang: str) -> str:
    """A finding's place (``"E1-0, turn 5, player 1, line 3, column 7"``) in ``lang``: each
    part read by :func:`phrase`, the round's label kept as it is."""
    if lang == "en" or not place:
        return place
    return _SEPARATORS[lang].join(phrase(part, lang) for part in place.split(", "))


def joined(items: list[str], lang: str) -> str:
    """Names or words listed as ``lang`` lists them (``A, B`` / ``A、B`` / ``A，B``)."""
    return _SEPARATORS[lang].join(items)

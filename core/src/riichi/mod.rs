//! The riichi family's audit over the event code: its referee (`referee`) and its checks,
//! each the twin of a check unit of `mjlog.families.riichi.rules`, driven as one observer
//! of the table engine (`Audit`, an `crate::engine::Observer`).
//!
//! The referee runs first on every event, then each check in the order of
//! `mjlog.families.riichi.family.CHECKS`. A check reports through its `Ctx`: a violation
//! (`Ctx::violation`, twin of `Referee.violation`) or an `unjudged` note
//! (`Ctx::unjudged`). Nothing here panics: every seat and tile is looked up checked.

pub mod calls;
pub mod draws;
pub mod furiten;
pub mod kan;
pub mod referee;
pub mod sakizuke;
pub mod win;

use std::collections::HashSet;

use crate::engine::{replay_observed, Engine, Observer, Replay, Seat};
use crate::engine_code::{kind_of, tile_str, tiles_str, CodeError, Ev};
pub use referee::Referee;

/// Violations one game keeps (`mjlog.core.diagnostics.PER_GAME`); the rest are counted.
pub const PER_GAME: usize = 1000;
/// Kinds of riichi tiles.
pub const KINDS: usize = 34;
/// The 13 kinds of thirteen orphans.
pub const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// The ruleset's options the native checks read (built from a `Ruleset` in
/// `mjlog/replay/native_audit.py`; the names and values of `RiichiOptions`).
#[derive(Clone, Debug)]
pub struct Options {
    /// Whether the ruleset plays red fives (the tile text of messages).
    pub red_fives: bool,
    pub kan_after_riichi: String,
    pub hidden_faults: String,
    pub four_kans: String,
    pub kan_dora: String,
    pub chankan_closed_kokushi: bool,
    pub kuikae: String,
    pub riichi_min_score: i64,
    pub riichi_min_wall: i64,
    pub double_ron: bool,
    pub triple_ron: bool,
    pub four_winds: bool,
    pub four_riichi: bool,
    pub nine_terminals: bool,
    pub furiten_tsumo: bool,
    /// Seats at the table (the valuation's three-player rules).
    pub players: i64,
    pub open_tanyao: bool,
    pub kiriage: bool,
    pub kazoe: String,
    pub ippatsu: bool,
    pub ura_dora: bool,
    /// Score verification's: K8 (open kan pao), nagashi mangan, noten payments per ready
    /// player (0: the usual pool).
    pub open_kan_pao: bool,
    pub nagashi: bool,
    pub noten_per_ready: i64,
    /// Kanzen sakizuke's switches, `None` where the ruleset does not play it.
    pub sakizuke: Option<sakizuke::SakizukeOptions>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            red_fives: true,
            kan_after_riichi: "wait".into(),
            hidden_faults: "judged".into(),
            four_kans: "abort".into(),
            kan_dora: "after-discard".into(),
            chankan_closed_kokushi: true,
            kuikae: "both".into(),
            riichi_min_score: 1000,
            riichi_min_wall: 0,
            double_ron: true,
            triple_ron: true,
            four_winds: true,
            four_riichi: true,
            nine_terminals: true,
            furiten_tsumo: false,
            players: 4,
            open_tanyao: true,
            kiriage: false,
            kazoe: "yakuman".into(),
            ippatsu: true,
            ura_dora: true,
            open_kan_pao: false,
            nagashi: true,
            noten_per_ready: 0,
            sakizuke: None,
        }
    }
}

/// One violation (`mjlog.core.diagnostics.Violation`, what the native route gives: the
/// rule's citation and the consequence are the Python side's, from the code, the player
/// and the dealer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub code: &'static str,
    pub index: usize,
    pub player: Option<usize>,
    pub round: String,
    pub turn: i64,
    pub message: String,
    pub evidence: Vec<(&'static str, String)>,
    /// The round's dealer when it was found (the consequence names them).
    pub dealer: usize,
}

/// What the checks report: the violations, those held until a hand is revealed, and
/// the rules already noted unjudged.
#[derive(Default)]
pub struct Judged {
    pub violations: Vec<Violation>,
    pub left_out: usize,
    held: Vec<Violation>,
    unjudged: HashSet<(&'static str, Option<usize>, String)>,
    /// Why the native audit declines the game (empty: it does not): a check met what only
    /// the Python route judges (a win the `mahjong` library values). The first reason.
    pub declined: String,
}

/// What a check's hook sees: the engine (table, index, notes), the referee's memory,
/// the options, and where its reports go.
pub struct Ctx<'a> {
    pub engine: &'a mut Engine,
    pub referee: &'a Referee,
    pub options: &'a Options,
    out: &'a mut Judged,
}

/// How a violation is placed: `moved`, at the turn the event makes (`move=True`; only a
/// move makes one); `hidden`, only the concealed hand shows it (held under
/// `hidden_faults=when-revealed`).
#[derive(Clone, Copy, Debug)]
pub struct How {
    pub moved: bool,
    pub hidden: bool,
}

/// A violation at the move's turn (Python's default).
pub const MOVE: How = How {
    moved: true,
    hidden: false,
};
/// At the move's turn, a fault only the concealed hand shows.
pub const HIDDEN: How = How {
    moved: true,
    hidden: true,
};
/// At the turn of the move before (`move=False`).
pub const STILL: How = How {
    moved: false,
    hidden: false,
};

/// Whether an event is a move (`mjlog.core.events.MOVES`).
fn is_move(ev: &Ev) -> bool {
    matches!(
        ev,
        Ev::Draw { .. }
            | Ev::Discard { .. }
            | Ev::Call { .. }
            | Ev::AddedKan { .. }
            | Ev::ClosedKan { .. }
            | Ev::Kita { .. }
            | Ev::Flower { .. }
    )
}

impl Ctx<'_> {
    /// A violation of rule `code` at the event being applied (`Referee.violation`), its
    /// turn and holding as `how` says.
    pub fn violation(
        &mut self,
        ev: &Ev,
        code: &'static str,
        message: String,
        player: Option<usize>,
        evidence: Vec<(&'static str, String)>,
        how: How,
    ) {
        let How { moved, hidden } = how;
        let moved = moved && is_move(ev);
        if self.out.violations.len() >= PER_GAME {
            self.out.left_out += 1;
            return;
        }
        let t = self.engine.table();
        let player = player.filter(|&p| p < t.n);
        let found = Violation {
            code,
            index: self.engine.index(),
            player,
            round: self.engine.round(),
            turn: t.turn + i64::from(moved),
            message,
            evidence,
            dealer: t.dealer,
        };
        if hidden && self.options.hidden_faults == "when-revealed" && player.is_some() {
            self.out.held.push(found);
        } else {
            self.out.violations.push(found);
        }
    }

    /// An `unjudged` note for rule `code` (`Referee.unjudged`): once per rule, player and
    /// round.
    pub fn unjudged(&mut self, code: &'static str, why: String, player: Option<usize>) {
        let key = (code, player, self.engine.round());
        if self.out.unjudged.insert(key) {
            self.engine
                .note("unjudged", format!("{code} not judged: {why}"), player);
        }
    }

    /// The native audit declines the game (`Judged::declined`; the first reason kept):
    /// the Python route judges it whole.
    pub fn decline(&mut self, why: String) {
        if self.out.declined.is_empty() {
            self.out.declined = why;
        }
    }

    /// A tile in mpsz, red fives as the ruleset has them (`RiichiReferee.t`).
    pub fn t(&self, tile: i64) -> String {
        tile_text(tile, self.options.red_fives)
    }

    /// Evidence: the hand of player `p` on the table now (`RiichiReferee.picture`).
    pub fn picture(&self, p: usize) -> (&'static str, String) {
        let text = self
            .engine
            .table()
            .seats
            .get(p)
            .map_or_else(String::new, |s| hand_picture(s, self.options.red_fives));
        ("hand", text)
    }

    /// The seat `p` of the table, if there is one.
    pub fn seat(&self, p: usize) -> Option<&Seat> {
        self.engine.table().seats.get(p)
    }
}

/// A tile id as text (`tile_str`), any i64 (a negative or too big one as `?`).
pub fn tile_text(tile: i64, red: bool) -> String {
    tile_str(usize::try_from(tile).unwrap_or(usize::MAX), red)
}

/// One check unit: hooks before and after each event (match on the event kinds it
/// looks at), with the referee's memory already brought up to date for the event.
pub trait Check {
    fn before(&mut self, _c: &mut Ctx<'_>, _ev: &Ev) {}
    fn after(&mut self, _c: &mut Ctx<'_>, _ev: &Ev) {}
}

/// The riichi audit as one observer: the referee, then the checks in order.
pub struct Audit {
    pub referee: Referee,
    pub checks: Vec<Box<dyn Check>>,
    pub options: Options,
    pub out: Judged,
}

impl Audit {
    /// An audit with `checks` (in judging order) under `options`.
    pub fn new(options: Options, checks: Vec<Box<dyn Check>>) -> Self {
        Audit {
            referee: Referee::default(),
            checks,
            options,
            out: Judged::default(),
        }
    }

    fn run(&mut self, engine: &mut Engine, ev: &Ev, before: bool) {
        let mut c = Ctx {
            engine,
            referee: &self.referee,
            options: &self.options,
            out: &mut self.out,
        };
        for check in self.checks.iter_mut() {
            if before {
                check.before(&mut c, ev);
            } else {
                check.after(&mut c, ev);
            }
        }
    }
}

impl Observer for Audit {
    fn before(&mut self, engine: &mut Engine, ev: &Ev) {
        self.referee
            .before(engine, ev, &self.options, &mut self.out);
        self.run(engine, ev, true);
    }
    fn after(&mut self, engine: &mut Engine, ev: &Ev) {
        self.referee.after(engine, ev);
        self.run(engine, ev, false);
    }
}

impl Judged {
    /// The held faults of `players`, whose hands are now shown, become violations
    /// (`RiichiReferee.reveal`).
    fn reveal(&mut self, players: &[usize]) {
        let (shown, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|v| v.player.is_some_and(|p| players.contains(&p)));
        self.violations.extend(shown);
        self.held = kept;
    }

    /// The round ended with faults never shown: a note each (`RiichiReferee.unrevealed`).
    fn unrevealed(&mut self, engine: &mut Engine) {
        for v in std::mem::take(&mut self.held) {
            let message = format!(
                "{} not judged: the hand was never revealed (hidden_faults=when-revealed): {}",
                v.code, v.message
            );
            engine.note("unjudged", message, v.player);
        }
    }
}

// -- hand kernels (twins of `mjlog.families.riichi.hand.shape`)

/// Kind counts of tiles (`counts_of`); `None` when one is no riichi tile (a flower, the
/// unknown tile).
pub fn counts_of(tiles: impl IntoIterator<Item = usize>) -> Option<[u8; KINDS]> {
    let mut c = [0u8; KINDS];
    for t in tiles {
        let k = usize::from(kind_of(t));
        let slot = c.get_mut(k)?;
        *slot = slot.saturating_add(1);
    }
    Some(c)
}

/// Whether counts split into sets and exactly one pair (`is_standard_complete`).
pub fn standard_complete(c: &mut [u8; KINDS]) -> bool {
    fn go(c: &mut [u8; KINDS], from: usize, pair: bool) -> bool {
        let Some(i) = (from..KINDS).find(|&i| c[i] > 0) else {
            return pair;
        };
        if c[i] >= 3 {
            c[i] -= 3;
            let ok = go(c, i, pair);
            c[i] += 3;
            if ok {
                return true;
            }
        }
        if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
            c[i] -= 1;
            c[i + 1] -= 1;
            c[i + 2] -= 1;
            let ok = go(c, i, pair);
            c[i] += 1;
            c[i + 1] += 1;
            c[i + 2] += 1;
            if ok {
                return true;
            }
        }
        if c[i] >= 2 && !pair {
            c[i] -= 2;
            let ok = go(c, i, true);
            c[i] += 2;
            return ok;
        }
        false
    }
    go(c, 0, false)
}

/// The waits of a 13-tile thirteen-orphans hand (`thirteen_orphans_waits`).
fn orphan_waits(c: &[u8; KINDS]) -> u64 {
    let mut missing = 0u64;
    let mut pair = false;
    for &k in &ORPHANS {
        match c[k] {
            0 => missing |= 1 << k,
            1 => {}
            2 if !pair => pair = true,
            _ => return 0,
        }
    }
    let on: u32 = ORPHANS.iter().map(|&k| u32::from(c[k])).sum();
    let all: u32 = c.iter().map(|&n| u32::from(n)).sum();
    if on != 13 || all != 13 {
        return 0;
    }
    if missing == 0 {
        return ORPHANS.iter().fold(0, |m, &k| m | 1 << k);
    }
    if missing & (missing - 1) == 0 && pair {
        missing
    } else {
        0
    }
}

/// Every winning kind (a mask) of a hand with `melds` called sets (`shape.waits`).
pub fn waits(c: &[u8; KINDS], melds: usize) -> u64 {
    let mut mask = 0u64;
    let mut h = *c;
    for k in 0..KINDS {
        if h[k] < 4 {
            h[k] += 1;
            if standard_complete(&mut h) {
                mask |= 1 << k;
            }
            h[k] -= 1;
        }
    }
    if melds == 0 {
        let count = |n: u8| c.iter().filter(|&&x| x == n).count();
        if count(2) == 6 && count(1) == 1 && count(0) == KINDS - 7 {
            if let Some(k) = c.iter().position(|&x| x == 1) {
                mask |= 1 << k;
            }
        }
        let no_middles = (0..3).all(|s| c[s * 9 + 1..s * 9 + 8].iter().all(|&x| x == 0));
        if no_middles {
            mask |= orphan_waits(c);
        }
    }
    mask
}

/// Whether counts are thirteen orphans (`is_thirteen_orphans`).
pub fn is_thirteen_orphans(c: &[u8; KINDS]) -> bool {
    let all: u32 = c.iter().map(|&n| u32::from(n)).sum();
    all == 14 && ORPHANS.iter().all(|&k| c[k] > 0)
}

/// The winning kinds of tiles with `melds` sets (`referee._waits_of`): 0 for no tiles or
/// one that is no riichi tile.
pub fn waits_of(hand: &[usize], melds: usize) -> u64 {
    if hand.is_empty() {
        return 0;
    }
    counts_of(hand.iter().copied()).map_or(0, |c| waits(&c, melds))
}

/// Kind counts of a seat's concealed tiles without the tile `without` (`referee.counts`).
pub fn seat_counts(seat: &Seat, without: usize) -> Option<[u8; KINDS]> {
    counts_of(seat.concealed.tiles().filter(|&t| t != without))
}

/// The waits of a hand now, without the tile `without` (`referee.hand_waits`).
pub fn hand_waits(seat: &Seat, without: usize) -> u64 {
    if seat.unknown != 0 {
        return 0;
    }
    let hand: Vec<usize> = seat.concealed.tiles().filter(|&t| t != without).collect();
    waits_of(&hand, seat.melds.len())
}

// -- evidence texts (twins of `mjlog.families.riichi.rules.evidence`)

/// A kind in mpsz (`kind_str`): `5m`, `7z`.
pub fn kind_str(k: usize) -> String {
    match k {
        0..=26 => format!("{}{}", k % 9 + 1, ['m', 'p', 's'][k / 9]),
        27..=33 => format!("{}z", k - 26),
        _ => format!("{}f", k.saturating_sub(33)),
    }
}

/// Single-tile names joined with each suit letter once per run (`join_mpsz`).
pub fn join_mpsz(names: impl IntoIterator<Item = String>) -> String {
    let mut out = String::new();
    let mut suit: Option<char> = None;
    for s in names {
        let mut chars = s.chars();
        let (Some(d), Some(x)) = (chars.next(), chars.next()) else {
            if let Some(prev) = suit.take() {
                out.push(prev);
            }
            out.push_str(&s);
            continue;
        };
        if let Some(prev) = suit {
            if prev != x {
                out.push(prev);
            }
        }
        out.push(d);
        suit = Some(x);
    }
    if let Some(s) = suit {
        out.push(s);
    }
    out
}

/// The kinds of a mask in order (`kinds_of_mask`).
pub fn kinds_of_mask(mask: u64) -> Vec<usize> {
    (0..64).filter(|&k| mask >> k & 1 == 1).collect()
}

/// The kinds of a mask in mpsz, or `none` (`kinds_text`).
pub fn kinds_text(mask: u64) -> String {
    if mask == 0 {
        return "none".into();
    }
    join_mpsz(kinds_of_mask(mask).into_iter().map(kind_str))
}

/// The concealed tiles, then each call in brackets (`hand_picture`).
pub fn hand_picture(seat: &Seat, red: bool) -> String {
    let mut text = tiles_str(seat.concealed.tiles(), red);
    for _ in 0..seat.unknown.clamp(0, 64) {
        text.push('?');
    }
    for m in &seat.melds {
        text.push_str(&format!(
            " [{} {}]",
            m.what.replace('_', " "),
            tiles_str(m.tiles.iter().copied(), red)
        ));
    }
    text
}

/// The native checks by code of their first rule, in `CHECKS` order, that the options
/// enable (`Check.enabled`); `wanted` names those to run (empty: all).
pub fn checks(options: &Options, wanted: &[String]) -> Vec<Box<dyn Check>> {
    let all: Vec<(&str, bool, Box<dyn Check>)> = vec![
        (
            "double-ron",
            !options.double_ron,
            Box::new(draws::DoubleRon),
        ),
        (
            "abortive-unjustified",
            true,
            Box::new(draws::Abortive::default()),
        ),
        ("rinshan-draw", true, Box::new(kan::RinshanDraw::default())),
        ("kan-dora", true, Box::new(kan::KanDora::default())),
        (
            "kuikae",
            options.kuikae != "allowed",
            Box::new(calls::Kuikae::default()),
        ),
        (
            "riichi-hand-changed",
            true,
            Box::new(calls::RiichiHandChanged::default()),
        ),
        ("riichi-illegal", true, Box::new(calls::RiichiIllegal)),
        ("chi-not-from-left", true, Box::new(calls::ChiFromLeft)),
        ("kan-after-call", true, Box::new(kan::KanAfterCall)),
        ("kan-wall-empty", true, Box::new(kan::KanWallEmpty)),
        (
            "fifth-kan",
            options.four_kans != "fifth-ends",
            Box::new(kan::FifthKan),
        ),
        ("riichi-call", true, Box::new(calls::RiichiCall)),
        ("okuri-kan", true, Box::new(kan::KanAfterRiichi)),
        ("chankan-closed", true, Box::new(kan::ChankanClosed)),
        ("furiten-ron", true, Box::new(furiten::Furiten)),
        (
            "sakizuke-first-call",
            options.sakizuke.is_some(),
            Box::new(sakizuke::Sakizuke::default()),
        ),
        ("no-yaku-win", true, Box::new(win::NoYakuWin::default())),
    ];
    all.into_iter()
        .filter(|(code, on, _)| *on && (wanted.is_empty() || wanted.iter().any(|w| w == code)))
        .map(|(_, _, c)| c)
        .collect()
}

/// The native checks' codes of first rules, in `CHECKS` order (what `checks` knows).
pub const NATIVE_CHECKS: [&str; 17] = [
    "double-ron",
    "abortive-unjustified",
    "rinshan-draw",
    "kan-dora",
    "kuikae",
    "riichi-hand-changed",
    "riichi-illegal",
    "chi-not-from-left",
    "kan-after-call",
    "kan-wall-empty",
    "fifth-kan",
    "riichi-call",
    "okuri-kan",
    "chankan-closed",
    "furiten-ron",
    "sakizuke-first-call",
    "no-yaku-win",
];

impl Options {
    /// Options from `(name, value)` pairs as the Python side writes them (flags `0`/`1`,
    /// numbers in decimal, names as the ruleset spells them); an error naming the pair
    /// that is no option or no value of it. Options not given keep their defaults.
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<Options, String> {
        let mut o = Options::default();
        for (name, value) in pairs {
            let flag = || match value.as_str() {
                "0" => Ok(false),
                "1" => Ok(true),
                _ => Err(format!("option {name}: {value:?} is no flag")),
            };
            let number = || {
                value
                    .parse::<i64>()
                    .map_err(|_| format!("option {name}: {value:?} is no integer"))
            };
            match name.as_str() {
                "red_fives" => o.red_fives = flag()?,
                "chankan_closed_kokushi" => o.chankan_closed_kokushi = flag()?,
                "double_ron" => o.double_ron = flag()?,
                "triple_ron" => o.triple_ron = flag()?,
                "four_winds" => o.four_winds = flag()?,
                "four_riichi" => o.four_riichi = flag()?,
                "nine_terminals" => o.nine_terminals = flag()?,
                "furiten_tsumo" => o.furiten_tsumo = flag()?,
                "players" => o.players = number()?,
                "open_tanyao" => o.open_tanyao = flag()?,
                "kiriage" => o.kiriage = flag()?,
                "kazoe" => o.kazoe = value.clone(),
                "ippatsu" => o.ippatsu = flag()?,
                "ura_dora" => o.ura_dora = flag()?,
                "open_kan_pao" => o.open_kan_pao = flag()?,
                "nagashi" => o.nagashi = flag()?,
                "noten_per_ready" => o.noten_per_ready = number()?,
                "sakizuke" => o.sakizuke = flag()?.then(sakizuke::SakizukeOptions::default),
                _ if name.starts_with("sakizuke_") => {
                    let z = o.sakizuke.get_or_insert_with(Default::default);
                    match &name["sakizuke_".len()..] {
                        "flush" => z.flush = flag()?,
                        "concealed" => z.concealed = flag()?,
                        "all_calls" => z.all_calls = flag()?,
                        "value_first" => z.value_first = flag()?,
                        "incidental" => z.incidental = flag()?,
                        "tanyao" => z.tanyao = flag()?,
                        "menzen_tsumo" => z.menzen_tsumo = value.clone(),
                        "ron_only" => z.ron_only = flag()?,
                        "oute_bisha" => z.oute_bisha = flag()?,
                        "oute_bisha_yakuhai" => z.oute_bisha_yakuhai = flag()?,
                        _ => return Err(format!("no native option {name}")),
                    }
                }
                "riichi_min_score" => o.riichi_min_score = number()?,
                "riichi_min_wall" => o.riichi_min_wall = number()?,
                "kan_after_riichi" => o.kan_after_riichi = value.clone(),
                "hidden_faults" => o.hidden_faults = value.clone(),
                "four_kans" => o.four_kans = value.clone(),
                "kan_dora" => o.kan_dora = value.clone(),
                "kuikae" => o.kuikae = value.clone(),
                _ => return Err(format!("no native option {name}")),
            }
        }
        Ok(o)
    }
}

/// The riichi audit of a game's code under `options` with the native checks named in
/// `wanted` (empty: all those the options enable): the engine's replay (its findings
/// with the checks' `unjudged` notes) and the checks' violations; an error for a
/// malformed code.
pub fn audit(
    words: &[i64],
    options: Options,
    wanted: &[String],
) -> Result<(Replay, Judged), CodeError> {
    let checks = checks(&options, wanted);
    let mut audit = Audit::new(options, checks);
    let replay = replay_observed(words, &mut [&mut audit])?;
    Ok((replay, audit.out))
}

/// The riichi audit of [`audit`] with the score verifier `verifier` in the same replay,
/// its hooks after the referee's and the checks' at each event (the Python route's
/// observer order: its `unjudged` notes fall among the engine's findings in that order);
/// `rules` false runs the verifier alone (no referee, no check).
pub fn audit_verified(
    words: &[i64],
    options: Options,
    wanted: &[String],
    rules: bool,
    verifier: &mut crate::scoring::verify::Verifier,
) -> Result<(Replay, Judged), CodeError> {
    if !rules {
        let replay = replay_observed(words, &mut [verifier])?;
        return Ok((replay, Judged::default()));
    }
    let checks = checks(&options, wanted);
    let mut audit = Audit::new(options, checks);
    let replay = replay_observed(words, &mut [&mut audit, verifier])?;
    Ok((replay, audit.out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine_code::kind as k;

    fn counts(text: &[(usize, u8)]) -> [u8; KINDS] {
        let mut c = [0; KINDS];
        for &(kind, n) in text {
            c[kind] = n;
        }
        c
    }

    #[test]
    fn waits_of_the_three_shapes() {
        // 23m 456p 789s 111z 99m: waits on 1m and 4m
        let c = counts(&[(1, 1), (2, 1), (12, 1), (13, 1), (14, 1), (24, 1), (25, 1)]);
        let c = {
            let mut c = c;
            c[26] = 1;
            c[27] = 3;
            c[8] = 2;
            c
        };
        assert_eq!(waits(&c, 0), 1 << 0 | 1 << 3);
        assert_eq!(kinds_text(waits(&c, 0)), "14m");
        // six pairs and a single: seven pairs waits on the single (closed only)
        let pairs = counts(&[(0, 2), (4, 2), (9, 2), (13, 2), (20, 2), (30, 2), (33, 1)]);
        assert_eq!(waits(&pairs, 0), 1 << 33);
        assert_eq!(waits(&pairs, 1), 0);
        // thirteen orphans, thirteen-sided
        let mut orphans = [0; KINDS];
        ORPHANS.iter().for_each(|&o| orphans[o] = 1);
        assert_eq!(waits(&orphans, 0).count_ones(), 13);
        orphans[0] = 2;
        assert!(is_thirteen_orphans(&orphans));
        assert_eq!(kinds_text(0), "none");
    }

    #[test]
    fn options_are_read_by_name() {
        let pairs = vec![("kuikae".to_string(), "same".to_string())];
        assert_eq!(Options::from_pairs(&pairs).unwrap().kuikae, "same");
        let bad = vec![("riichi_min_wall".to_string(), "x".to_string())];
        assert!(Options::from_pairs(&bad).is_err());
    }

    /// A small xorshift generator (no dependency).
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> i64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n) as i64
        }
    }

    #[test]
    fn hostile_codes_never_panic() {
        let mut base = vec![k::GAME_START, 4, 136, 14, 13, 1, 0, 0];
        base.extend([k::ROUND_START, 0, 1, 0, 0, 0, 100, 0, 4]);
        base.extend([25000; 4]);
        base.push(4);
        for p in 0..4 {
            base.push(13);
            base.extend((0..13).map(|i| p * 13 + i));
        }
        for i in 0..40 {
            let p = i % 4;
            base.extend([
                k::DRAW,
                p,
                52 + i,
                0,
                k::DISCARD,
                p,
                52 + i,
                i64::from(i == 5),
            ]);
        }
        base.extend([k::CLOSED_KAN, 1, 4, 0, 1, 2, 3, k::DRAW, 1, 120, 1]);
        base.extend([k::PON, 2, 1, 4, 3, 4, 5, 6, k::DORA, 130]);
        base.extend([
            k::WIN,
            0,
            1,
            3,
            2,
            0,
            1,
            0,
            1,
            7,
            4,
            0,
            0,
            0,
            0,
            -1,
            0,
            0,
            0,
            0,
            -1,
            -1,
        ]);
        base.extend([k::EXHAUSTIVE, 4, 5, 0, -1, 0, k::GAME_END, -1, 4]);
        let mut rng = Rng(77);
        let mut decoded = 0;
        for _ in 0..5_000 {
            let mut code = base.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(code.len() as u64) as usize;
                let word = match rng.below(4) {
                    0 => rng.below(150),
                    1 => -rng.below(3),
                    2 => i64::MAX - rng.below(2),
                    _ => rng.below(6),
                };
                match rng.below(3) {
                    0 => code[at] = word,
                    1 => {
                        code.remove(at);
                    }
                    _ => code.insert(at, word),
                }
            }
            decoded += usize::from(audit(&code, Options::default(), &[]).is_ok());
        }
        assert!(decoded > 500, "too few mutants decode: {decoded}");
    }
}

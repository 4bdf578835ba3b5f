//! Abortive draws and multiple rons (twins of `mjlog.families.riichi.rules.draws`):
//! `DoubleRon`, two rons on one tile only where the ruleset allows double ron; `Abortive`,
//! an abortive draw only when its condition holds and the ruleset plays it, and a round
//! whose condition holds ends there (四風連打, 四家立直, 四開槓, 三家和, a fifth kan).

use crate::engine_code::{kind_of, CallKind, Ev, UNKNOWN};

use super::{Check, Ctx, MOVE, STILL};

/// Kinds of terminals and honours (九種九牌).
const TERMINALS_HONOURS: [u8; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
/// The kinds of the four winds.
const WINDS: std::ops::RangeInclusive<u8> = 27..=30;
/// `mjlog.core.events.ABORTIVE_KINDS`, by the index the event code writes.
pub const ABORTIVE_KINDS: [&str; 6] = [
    "nine-terminals",
    "four-riichi",
    "triple-ron",
    "four-kans",
    "four-winds",
    "unstated",
];

/// A tile id of the code as a slot (the unknown tile for one out of range).
fn slot(tile: i64) -> usize {
    usize::try_from(tile).unwrap_or(UNKNOWN)
}

/// Two rons on one tile where the ruleset has no double ron (`draws.DoubleRon`; enabled
/// only when `double_ron` is off).
#[derive(Default)]
pub struct DoubleRon;

impl Check for DoubleRon {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        if let Ev::Win { winner, from, .. } = ev {
            if from != winner && c.referee.wins_in_row.len() >= 2 {
                let message = "another ron on the same tile, where only the first in turn \
                               order may win"
                    .to_string();
                let p = usize::try_from(*winner).ok();
                c.violation(ev, "double-ron", message, p, Vec::new(), STILL);
            }
        }
    }
}

/// The abortive draws of a round (`draws.Abortive`): what `_AbortMemory` keeps, and the
/// table's rivers and calls this round (which the native table does not keep).
#[derive(Default)]
pub struct Abortive {
    /// The abortive draw the round should have ended in, until play goes on past it.
    due: String,
    /// A fourth kan by more than one player: the round ends after the next discard.
    four_kans_armed: bool,
    riichi: i64,
    /// Each seat's discards this round: how many, and the first tile.
    rivers: Vec<(usize, usize)>,
    /// Chi, pon, kans and kita this round (`TableState.calls`).
    calls: usize,
}

impl Abortive {
    /// The round should end here in an abortive draw (`_due`).
    fn set_due(&mut self, why: &str) {
        self.due = why.to_string();
    }

    /// Play goes on past an abortive draw due (`_missed`).
    fn missed(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        if !self.due.is_empty() {
            let message = format!(
                "play goes on although the round ends in an abortive draw ({})",
                self.due
            );
            c.violation(ev, "abortive-missed", message, None, Vec::new(), MOVE);
            self.due.clear();
        }
    }

    fn after_discard(&mut self, c: &Ctx<'_>, player: i64, tile: i64) {
        if let Some(river) = usize::try_from(player)
            .ok()
            .and_then(|p| self.rivers.get_mut(p))
        {
            if river.0 == 0 {
                river.1 = slot(tile);
            }
            river.0 += 1;
        }
        if self.four_kans_armed {
            self.four_kans_armed = false;
            self.set_due("四開槓, four kans by more than one player");
        }
        let t = c.engine.table();
        if t.turn == 8 && self.calls == 0 && c.options.four_winds && t.n == 4 {
            let ones: Vec<u8> = self
                .rivers
                .iter()
                .filter(|r| r.0 == 1)
                .map(|r| kind_of(r.1))
                .collect();
            let all_one = self.rivers.iter().all(|r| r.0 == 1);
            let same = ones.first().is_some_and(|&k| ones.iter().all(|&x| x == k));
            if same && ones.iter().all(|k| WINDS.contains(k)) && all_one {
                self.set_due("四風連打, four winds discarded");
            }
        }
    }

    fn after_kan(&mut self, c: &Ctx<'_>) {
        self.calls += 1;
        let kans = &c.referee.kan_players;
        if kans.len() == 5 {
            self.set_due("a fifth kan");
        } else if kans.len() == 4
            && kans.iter().any(|&p| p != kans[0])
            && c.options.four_kans != "no-abort"
        {
            self.four_kans_armed = true;
        }
    }

    /// Why an abortive draw of `kind` may not end the round here, or "" (`_unjustified`).
    fn unjustified(&self, c: &mut Ctx<'_>, kind: &str) -> String {
        let o = c.options;
        match kind {
            "nine-terminals" => self.nine_terminals(c),
            "four-winds" if !self.due.starts_with("四風連打") => {
                "the first four discards are not one wind, uncalled".into()
            }
            "four-winds" if !o.four_winds => "the ruleset has no 四風連打".into(),
            "four-riichi" if self.riichi < 4 => format!("only {} riichi", self.riichi),
            "four-riichi" if !o.four_riichi => "the ruleset has no 四家立直".into(),
            "four-kans" => {
                let kans = &c.referee.kan_players;
                let one = kans.iter().all(|&p| p == kans[0]);
                if kans.len() < 4 || (one && kans.len() == 4) {
                    let by: Vec<String> = kans.iter().map(ToString::to_string).collect();
                    let by = if by.is_empty() {
                        "nobody".to_string()
                    } else {
                        by.join(", ")
                    };
                    format!("{} kans, by players {by}", kans.len())
                } else if o.four_kans == "no-abort" {
                    "the ruleset has no 四開槓".into()
                } else {
                    String::new()
                }
            }
            "triple-ron" if !o.triple_ron => "the ruleset has no 三家和".into(),
            _ => String::new(),
        }
    }

    /// `_nine_terminals`: why the player to discard may not declare 九種九牌, or "".
    fn nine_terminals(&self, c: &mut Ctx<'_>) -> String {
        let t = c.engine.table();
        let p = usize::try_from(t.to_discard).ok();
        let seat = p.and_then(|p| t.seats.get(p));
        let mut kinds = 0u64;
        if let Some(s) = seat {
            for tile in s.concealed.tiles() {
                let k = kind_of(tile);
                if TERMINALS_HONOURS.contains(&k) {
                    kinds |= 1 << k;
                }
            }
        }
        if !c.options.nine_terminals {
            return "the ruleset has no 九種九牌".into();
        }
        let river = p.and_then(|p| self.rivers.get(p)).map_or(0, |r| r.0);
        let (Some(p), Some(s)) = (p, seat) else {
            return "not on the player's first draw of an uninterrupted go-around".into();
        };
        if river != 0 || self.calls != 0 {
            return "not on the player's first draw of an uninterrupted go-around".into();
        }
        let known = i64::from(kinds.count_ones());
        let unknown = s.unknown;
        if known + unknown < 9 {
            let mut why = format!("only {known} different terminals and honours in hand");
            if unknown != 0 {
                why.push_str(&format!(" and {unknown} unknown tiles"));
            }
            return why;
        }
        if known < 9 {
            let why = format!(
                "{unknown} tiles of the hand are unknown (?), so whether it holds nine \
                 terminals and honours is"
            );
            c.unjudged("abortive-unjustified", why, Some(p));
        }
        String::new()
    }
}

impl Check for Abortive {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        match ev {
            Ev::RoundStart { .. } => {
                *self = Abortive {
                    rivers: vec![(0, UNKNOWN); c.engine.table().n],
                    ..Abortive::default()
                };
            }
            Ev::Draw { .. } => self.missed(c, ev),
            Ev::Call { .. } => self.missed(c, ev),
            Ev::DrawResult {
                abortive: false, ..
            } => self.missed(c, ev),
            Ev::DrawResult {
                abortive: true,
                kind,
                ..
            } => {
                let kind = usize::try_from(*kind)
                    .ok()
                    .and_then(|k| ABORTIVE_KINDS.get(k))
                    .copied()
                    .unwrap_or("");
                let why = self.unjustified(c, kind);
                if !why.is_empty() {
                    let message = format!("abortive draw ({kind}): {why}");
                    c.violation(ev, "abortive-unjustified", message, None, Vec::new(), STILL);
                }
                self.due.clear();
            }
            Ev::Win { winner, from, .. }
                if from != winner && c.referee.wins_in_row.len() == 3 && c.options.triple_ron =>
            {
                let message = "three rons on one tile are recorded as wins; the ruleset \
                               makes it an abortive draw (三家和)"
                    .to_string();
                let p = usize::try_from(*winner).ok();
                c.violation(ev, "abortive-missed", message, p, Vec::new(), STILL);
            }
            _ => {}
        }
    }

    fn after(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        match ev {
            Ev::Discard { player, tile, .. } => self.after_discard(c, *player, *tile),
            Ev::Riichi { .. } => {
                self.riichi += 1;
                if self.riichi == 4 && c.options.four_riichi && c.engine.table().n == 4 {
                    self.set_due("四家立直, four players in riichi");
                }
            }
            Ev::Call {
                kind: CallKind::OpenKan,
                ..
            }
            | Ev::AddedKan { .. }
            | Ev::ClosedKan { .. } => self.after_kan(c),
            Ev::Call { .. } | Ev::Kita { .. } => self.calls += 1,
            _ => {}
        }
    }
}

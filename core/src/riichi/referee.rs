//! The riichi referee (twin of `mjlog.families.riichi.rules.referee.RiichiReferee`): the
//! round's memory the riichi checks share, kept by its own hooks, which run before the
//! checks' on every event. It judges nothing itself; it reveals or drops the faults held
//! until a hand is shown (`hidden_faults=when-revealed`).

use std::cell::Cell;

use crate::engine::Engine;
use crate::engine_code::{kind_of, CallKind, Ev, UNKNOWN};

use super::{tile_text, waits_of, Judged, Options};

/// The chi or pon just made, until the discard that must follow it.
#[derive(Clone, Debug)]
pub struct Called {
    /// `chi` or `pon`.
    pub what: &'static str,
    pub called: i64,
    pub tiles: Vec<i64>,
}

/// The referee's memory of one player in the current round (`referee.Seat`).
#[derive(Clone, Debug)]
pub struct RefSeat {
    /// The concealed tiles after the player's last discard (as dealt before it);
    /// `[UNKNOWN]` for a hand not fully written down.
    pub hand: Vec<usize>,
    /// The player's called and kanned sets then.
    pub melds: usize,
    /// Winning kinds of `hand` once counted, -1 until then.
    waits: Cell<i64>,
    /// Whether the hand is still `hand` but for a draw not yet discarded.
    pub waits_held: bool,
    /// Where the tiles passed since the player's last discard start in `passes`.
    pub since: i64,
    /// Kinds the player has discarded this round (mask; kinds past 63 are left out).
    pub river_kinds: u64,
    /// Riichi furiten: the winning tile passed after riichi (evidence).
    pub riichi_furiten: String,
    pub last_draw: i64,
    pub just_called: Option<Called>,
}

impl Default for RefSeat {
    fn default() -> Self {
        RefSeat {
            hand: Vec::new(),
            melds: 0,
            waits: Cell::new(-1),
            waits_held: false,
            since: -1,
            river_kinds: 0,
            riichi_furiten: String::new(),
            last_draw: -1,
            just_called: None,
        }
    }
}

/// One tile passed: (player, tile, what, turn).
pub type Pass = (usize, i64, &'static str, i64);

/// The referee (module docstring); fields as `RiichiReferee`'s.
#[derive(Default)]
pub struct Referee {
    pub seats: Vec<RefSeat>,
    /// A tile others may still ron: (player, tile, what) until the next move.
    pub pending: Option<(usize, i64, &'static str)>,
    pub passes: Vec<Pass>,
    pub in_riichi: Vec<usize>,
    pub kan_players: Vec<usize>,
    pub rinshan_due: i64,
    pub rinshan_before: i64,
    pub wins_in_row: Vec<usize>,
    pub round_start: i64,
    red_fives: bool,
}

/// A bit of a kind in a mask (0 for a kind past the mask).
pub fn bit(kind: u8) -> u64 {
    if kind < 64 {
        1 << kind
    } else {
        0
    }
}

fn seat_of(p: i64) -> Option<usize> {
    usize::try_from(p).ok()
}

impl Referee {
    /// The winning kinds (mask) of player `p`'s hand after its last discard (or as
    /// dealt), counted once (`RiichiReferee.waits`); 0 for no such seat.
    pub fn waits(&self, p: usize) -> u64 {
        let Some(seat) = self.seats.get(p) else {
            return 0;
        };
        if seat.waits.get() < 0 {
            seat.waits.set(waits_of(&seat.hand, seat.melds) as i64);
        }
        seat.waits.get() as u64
    }

    /// Temporary furiten of player `p`: the first winning tile the others passed since
    /// its last discard or the deal, as evidence, or "" (`RiichiReferee.passed`).
    pub fn passed(&self, p: usize) -> String {
        let Some(seat) = self.seats.get(p) else {
            return String::new();
        };
        let w = if seat.since >= 0 { self.waits(p) } else { 0 };
        if w != 0 {
            let from = usize::try_from(seat.since).unwrap_or(0);
            for &(q, tile, what, turn) in self.passes.iter().skip(from) {
                if q != p && w & bit(kind_of(usize::try_from(tile).unwrap_or(UNKNOWN))) != 0 {
                    return self.passed_note(q, tile, what, turn);
                }
            }
        }
        String::new()
    }

    /// A tile passed, as furiten evidence: `5m (discard of player 2, turn 14)`.
    pub fn passed_note(&self, p: usize, tile: i64, what: &str, turn: i64) -> String {
        format!(
            "{} ({what} of player {p}, turn {turn})",
            tile_text(tile, self.red_fives)
        )
    }

    /// The tile others could ron was not ronned: whoever waits on it passed it.
    fn settle(&mut self, engine: &Engine) {
        let Some((p, tile, what)) = self.pending.take() else {
            return;
        };
        let turn = engine.table().turn;
        self.passes.push((p, tile, what, turn));
        let k = bit(kind_of(usize::try_from(tile).unwrap_or(UNKNOWN)));
        for i in 0..self.in_riichi.len() {
            let q = self.in_riichi[i];
            let open = self
                .seats
                .get(q)
                .is_some_and(|s| s.riichi_furiten.is_empty());
            if q != p && open && self.waits(q) & k != 0 {
                let note = self.passed_note(p, tile, what, turn);
                self.seats[q].riichi_furiten = note;
            }
        }
    }

    fn seat(&mut self, p: i64) -> Option<&mut RefSeat> {
        seat_of(p).and_then(|p| self.seats.get_mut(p))
    }

    /// The referee's hooks before an event.
    pub fn before(&mut self, engine: &mut Engine, ev: &Ev, options: &Options, out: &mut Judged) {
        self.red_fives = options.red_fives;
        match ev {
            Ev::GameStart { players, .. } => {
                let n = usize::try_from(*players).unwrap_or(0).min(64);
                self.seats = vec![RefSeat::default(); n];
            }
            Ev::GameEnd { .. } => out.unrevealed(engine),
            Ev::RoundStart { hands, .. } => {
                out.unrevealed(engine);
                self.seats = hands
                    .iter()
                    .map(|h| RefSeat {
                        hand: h
                            .iter()
                            .map(|&t| usize::try_from(t).unwrap_or(UNKNOWN))
                            .collect(),
                        since: 0,
                        ..RefSeat::default()
                    })
                    .collect();
                self.pending = None;
                self.passes.clear();
                self.in_riichi.clear();
                self.kan_players.clear();
                self.rinshan_due = -1;
                self.wins_in_row.clear();
                self.round_start = engine.index() as i64;
            }
            Ev::Call { .. } | Ev::Kita { .. } => self.settle(engine),
            Ev::Draw { player, tile, .. } => {
                self.settle(engine);
                self.rinshan_before = self.rinshan_due;
                self.rinshan_due = -1;
                if let Some(seat) = self.seat(*player) {
                    seat.last_draw = *tile;
                }
            }
            Ev::Win { winner, from, .. } => {
                if from != winner {
                    if let Some(w) = seat_of(*winner) {
                        self.wins_in_row.push(w);
                    }
                }
                if let Some(w) = seat_of(*winner) {
                    out.reveal(&[w]);
                }
            }
            Ev::DrawResult {
                abortive: false,
                shown,
                ..
            } => {
                self.settle(engine);
                let mut players = self.in_riichi.clone();
                players.extend((0..32).filter(|p| shown >> p & 1 == 1));
                out.reveal(&players);
            }
            _ => {}
        }
    }

    /// The referee's hooks after an event.
    pub fn after(&mut self, engine: &mut Engine, ev: &Ev) {
        match ev {
            Ev::Discard {
                player,
                tile,
                riichi,
            } => self.after_discard(engine, *player, *tile, *riichi),
            Ev::Call {
                kind,
                player,
                called,
                tiles,
                ..
            } => {
                if *kind == CallKind::OpenKan {
                    self.after_kan(*player);
                } else if let Some(seat) = self.seat(*player) {
                    seat.just_called = Some(Called {
                        what: if *kind == CallKind::Chi { "chi" } else { "pon" },
                        called: *called,
                        tiles: tiles.to_vec(),
                    });
                    seat.waits_held = false;
                }
            }
            Ev::ClosedKan { player, .. } => self.after_kan(*player),
            Ev::AddedKan { player, added, .. } => {
                self.after_kan(*player);
                if let Some(p) = seat_of(*player) {
                    self.pending = Some((p, *added, "added kan"));
                }
            }
            Ev::Kita { player, tile } => {
                if let Some(seat) = self.seat(*player) {
                    seat.waits_held = false;
                }
                self.rinshan_due = *player;
                if let Some(p) = seat_of(*player) {
                    self.pending = Some((p, *tile, "kita"));
                }
            }
            _ => {}
        }
    }

    fn after_kan(&mut self, player: i64) {
        if let Some(seat) = self.seat(player) {
            seat.waits_held = false;
        }
        if let Some(p) = seat_of(player) {
            self.kan_players.push(p);
        }
        self.rinshan_due = if self.kan_players.len() != 5 {
            player
        } else {
            -1
        };
    }

    fn after_discard(&mut self, engine: &Engine, player: i64, tile: i64, riichi: bool) {
        let Some(p) = seat_of(player) else { return };
        let since = self.passes.len() as i64;
        if riichi && !self.in_riichi.contains(&p) {
            self.in_riichi.push(p);
        }
        let Some(seat) = self.seats.get_mut(p) else {
            return;
        };
        if seat.just_called.is_some() {
            seat.last_draw = -1;
        }
        seat.since = since;
        seat.just_called = None;
        seat.river_kinds |= bit(kind_of(usize::try_from(tile).unwrap_or(UNKNOWN)));
        if !(seat.waits_held && tile == seat.last_draw) {
            if let Some(ps) = engine.table().seats.get(p) {
                seat.hand = if ps.unknown != 0 {
                    vec![UNKNOWN]
                } else {
                    ps.concealed.tiles().collect()
                };
                seat.melds = ps.melds.len();
            }
            seat.waits.set(-1);
            seat.waits_held = true;
        }
        self.pending = Some((p, tile, "discard"));
    }
}

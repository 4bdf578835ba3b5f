//! The table engine over the compact event code (twin of `mjlog.replay.engine.Engine`
//! run without observers and without a payer, and of `mjlog.replay.state.TableState`).
//!
//! It replays one game's rows in order, judging each before applying it, and gives the
//! same findings as the Python engine: code, event index, seat, message, severity, round
//! label and turn. It judges what the Python engine judges (turn order, tiles in hand,
//! each physical tile used once, the wall, the points from round to round) and nothing
//! more: no observer, no rule, no hand value. Every index and seat is checked before it
//! is used, and every sum wraps, so no code panics (`decode` refuses a malformed one).

use crate::engine_code::{
    decode, kind_of, list_text, tile_str, tiles_here, tiles_str, CallKind, CodeError, Ev, Size,
    SLOTS, UNKNOWN,
};

/// Findings one game keeps (`mjlog.diagnostics.PER_GAME`); the rest are counted.
pub const PER_GAME: usize = 1000;
const WINDS: [char; 4] = ['E', 'S', 'W', 'N'];

/// One finding of the replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub code: &'static str,
    /// The event's index in the record (its row's place in the code).
    pub index: usize,
    pub player: Option<usize>,
    pub message: String,
    /// A note (severity info) rather than an error.
    pub note: bool,
    /// The round's label (`E2-1`), empty before the first round.
    pub round: String,
    /// Moves made this round when it was found.
    pub turn: i64,
}

/// A game's findings, and how many past `PER_GAME` were only counted.
#[derive(Debug, Default)]
pub struct Replay {
    pub findings: Vec<Finding>,
    pub left_out: usize,
    /// The table's scores after the last event (empty when no table was set: Python's
    /// `engine.state.scores` where `engine.state.n`).
    pub scores: Vec<i64>,
}

/// A set of tile ids 0..=144.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct TileSet([u64; 3]);

impl TileSet {
    /// Whether the set holds tile `t`.
    pub fn has(&self, t: usize) -> bool {
        t < SLOTS && self.0[t >> 6] >> (t & 63) & 1 == 1
    }
    fn add(&mut self, t: usize) {
        if t < SLOTS {
            self.0[t >> 6] |= 1 << (t & 63);
        }
    }
    fn remove(&mut self, t: usize) {
        if t < SLOTS {
            self.0[t >> 6] &= !(1 << (t & 63));
        }
    }
    fn of(tiles: &[usize]) -> Self {
        let mut s = Self::default();
        tiles.iter().for_each(|&t| s.add(t));
        s
    }
    fn subset_of(&self, other: &Self) -> bool {
        (0..3).all(|i| self.0[i] & !other.0[i] == 0)
    }
    fn minus(&self, other: &Self) -> Self {
        Self([
            self.0[0] & !other.0[0],
            self.0[1] & !other.0[1],
            self.0[2] & !other.0[2],
        ])
    }
    /// How many tiles the set holds.
    pub fn len(&self) -> i64 {
        self.0.iter().map(|w| i64::from(w.count_ones())).sum()
    }
    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }
    /// The tiles of the set, in id order.
    pub fn tiles(&self) -> impl Iterator<Item = usize> + '_ {
        (0..SLOTS).filter(|&t| self.has(t))
    }
}

/// One call on the table (`PlayerState.melds`: the call events in the order made, an
/// added kan in place of its pon).
#[derive(Clone, Debug)]
pub struct Meld {
    /// The call's `TYPE`: `chi`, `pon`, `open_kan`, `added_kan`, `closed_kan`.
    pub what: &'static str,
    /// Its tiles as the record writes them (checked ids).
    pub tiles: Vec<usize>,
    /// The called tile (the added one of an added kan; `UNKNOWN` for a closed kan).
    pub called: usize,
}

impl Meld {
    fn is_pon_of(&self, kind: u8) -> bool {
        self.what == "pon" && kind_of(self.called) == kind
    }
}

/// One seat's tiles (`mjlog.replay.state.PlayerState`, what the judging reads of it).
#[derive(Clone, Default)]
pub struct Seat {
    pub concealed: TileSet,
    /// Tiles in hand the record does not name.
    pub unknown: i64,
    pub melds: Vec<Meld>,
    pub flowers: Vec<usize>,
    /// Whether the player has declared riichi this round (a riichi discard).
    pub riichi: bool,
}

/// The table (`mjlog.replay.state.TableState`, what the judging reads of it). Observers
/// read it (`Engine::table`); only the engine changes it.
pub struct Table {
    pub n: usize,
    pub size: Option<Size>,
    pub here: [bool; SLOTS],
    pub seats: Vec<Seat>,
    pub wind: i64,
    pub number: i64,
    pub honba: i64,
    pub kyotaku: i64,
    pub dealer: usize,
    pub scores: Vec<i64>,
    pub ura: Vec<usize>,
    pub live_wall: i64,
    pub used: [bool; SLOTS],
    pub turn: i64,
    pub to_draw: i64,
    pub to_discard: i64,
    pub last_discard: i64,
    pub last_discarder: i64,
    pub dealing: bool,
}

fn fresh_used() -> [bool; SLOTS] {
    let mut used = [false; SLOTS];
    used[UNKNOWN] = true;
    used
}

impl Table {
    fn new(n: usize) -> Self {
        Table {
            n,
            size: None,
            here: tiles_here(None, n),
            seats: vec![Seat::default(); n],
            wind: 0,
            number: 1,
            honba: 0,
            kyotaku: 0,
            dealer: 0,
            scores: vec![0; n],
            ura: Vec::new(),
            live_wall: 0,
            used: fresh_used(),
            turn: 0,
            to_draw: -1,
            to_discard: -1,
            last_discard: -1,
            last_discarder: -1,
            dealing: false,
        }
    }

    /// A new table of `n` seats keeping the size (`TableState.reset`, then `size`).
    fn reset(&mut self, n: usize, size: Option<Size>) {
        *self = Table::new(n);
        self.size = size;
        self.here = tiles_here(size, n);
    }

    fn seat(&self, p: i64) -> Option<usize> {
        usize::try_from(p).ok().filter(|&p| p < self.n)
    }

    fn tile_here(&self, here: &[bool; SLOTS], t: i64) -> bool {
        usize::try_from(t).is_ok_and(|t| t < SLOTS && here[t])
    }

    fn all_here(&self, here: &[bool; SLOTS], tiles: &[i64]) -> bool {
        tiles.iter().all(|&t| self.tile_here(here, t))
    }

    /// The per-seat field of `ev` of another length than the seats (`TableState.uneven`).
    fn uneven(&self, ev: &Ev) -> &'static str {
        let n = match ev {
            Ev::RoundStart { hands, .. } => hands.len(),
            _ => self.n,
        };
        let off = |v: Option<&[i64]>| v.is_some_and(|v| !v.is_empty() && v.len() != n);
        let count_off = |c: i64| c > 0 && usize::try_from(c) != Ok(n);
        match ev {
            Ev::RoundStart { scores, .. } if off(Some(scores)) => "scores",
            Ev::Riichi { scores, .. } | Ev::RoundEnd { scores } if off(*scores) => "scores",
            Ev::GameEnd { scores, .. } if off(*scores) => "scores",
            Ev::GameEnd { points, .. } if count_off(*points) => "points",
            Ev::Win { deltas, before, .. } => {
                if off(Some(deltas)) {
                    "deltas"
                } else if off(*before) {
                    "scores_before"
                } else {
                    ""
                }
            }
            Ev::DrawResult {
                deltas,
                before,
                hands,
                ..
            } => {
                if off(Some(deltas)) {
                    "deltas"
                } else if off(*before) {
                    "scores_before"
                } else if count_off(*hands) {
                    "hands"
                } else {
                    ""
                }
            }
            _ => "",
        }
    }

    /// Whether `ev` names only seats and tiles of this table (`TableState.fits`).
    fn fits(&self, ev: &Ev) -> bool {
        let here = &self.here;
        let seat = |p: i64| self.seat(p).is_some();
        let tile = |t: i64| self.tile_here(here, t);
        let ok = match ev {
            Ev::Noop | Ev::GameStart { .. } => true,
            Ev::RoundStart {
                dealer,
                dora,
                hands,
                ..
            } => {
                let n = hands.len();
                let here = tiles_here(self.size, n);
                usize::try_from(*dealer).is_ok_and(|d| d < n)
                    && self.tile_here(&here, *dora)
                    && hands.iter().all(|h| self.all_here(&here, h))
            }
            Ev::Draw {
                player, tile: t, ..
            }
            | Ev::Discard {
                player, tile: t, ..
            }
            | Ev::Kita { player, tile: t } => seat(*player) && tile(*t),
            Ev::Call {
                player,
                from,
                called,
                tiles,
                ..
            } => seat(*player) && seat(*from) && tile(*called) && self.all_here(here, tiles),
            Ev::AddedKan {
                player,
                from,
                called,
                added,
                tiles,
            } => {
                seat(*player)
                    && seat(*from)
                    && tile(*called)
                    && tile(*added)
                    && self.all_here(here, tiles)
            }
            Ev::ClosedKan { player, tiles } => seat(*player) && self.all_here(here, tiles),
            Ev::Flower {
                player,
                tile: t,
                from,
            } => seat(*player) && from.is_none_or(seat) && tile(*t),
            Ev::Riichi { player, .. }
            | Ev::Ready { player }
            | Ev::Chombo { player }
            | Ev::Seat { player, .. } => seat(*player),
            Ev::Dora { tile: t } => tile(*t),
            Ev::Win {
                winner,
                from,
                win_tile,
                hand,
                dora,
                ura,
                ..
            } => {
                seat(*winner)
                    && seat(*from)
                    && tile(*win_tile)
                    && self.all_here(here, hand)
                    && self.all_here(here, dora)
                    && self.all_here(here, ura)
            }
            Ev::DrawResult { .. } | Ev::RoundEnd { .. } | Ev::GameEnd { .. } => true,
        };
        ok && self.uneven(ev).is_empty()
    }

    /// The tiles of `tiles` a hand does not hold, and whether they are among its unknown
    /// ones (`TableState.missing`).
    fn missing(&self, p: usize, tiles: &[usize]) -> (Vec<usize>, bool) {
        let seat = &self.seats[p];
        let missing: Vec<usize> = tiles
            .iter()
            .copied()
            .filter(|&t| !seat.concealed.has(t))
            .collect();
        let unnamed = !missing.is_empty()
            && (missing.len() as i64) <= seat.unknown
            && !missing.contains(&UNKNOWN);
        (missing, unnamed)
    }

    fn take_from_hand(&mut self, p: usize, tiles: &[usize]) {
        let (missing, unnamed) = self.missing(p, tiles);
        if unnamed {
            self.seats[p].unknown -= missing.len() as i64;
            for &t in &missing {
                self.used[t] = true;
            }
        }
        for &t in tiles {
            self.seats[p].concealed.remove(t);
        }
    }

    fn after_kan(&mut self, p: usize) {
        self.to_discard = -1;
        self.to_draw = p as i64;
    }

    fn pon_of(&self, p: usize, added: usize) -> Option<usize> {
        let kind = kind_of(added);
        self.seats[p].melds.iter().position(|m| m.is_pon_of(kind))
    }

    fn pay(&mut self, deltas: &[i64]) {
        for (s, d) in self.scores.iter_mut().zip(deltas) {
            *s = s.wrapping_add(*d);
        }
    }
}

/// A tile id the table has checked (0..=144).
fn id(t: i64) -> usize {
    usize::try_from(t).map_or(UNKNOWN, |t| t.min(UNKNOWN))
}

fn ids(tiles: &[i64]) -> Vec<usize> {
    tiles.iter().map(|&t| id(t)).collect()
}

/// The engine: the table, the findings, and what it keeps between rounds. Observers
/// read it through its public methods and add notes to its findings (`Engine::note`).
pub struct Engine {
    t: Table,
    out: Replay,
    red_fives: bool,
    /// The game start's (leftover sticks lost, first dealer), once one was seen.
    game: Option<(bool, i64)>,
    rounds: i64,
    index: usize,
    sticks_collected: bool,
    round_ended: bool,
    end_scores: Option<Vec<i64>>,
    partial_draws: Vec<usize>,
    results_only: bool,
    /// Whether a round has started and its start fitted the table (observers see it).
    round_fits: bool,
    /// Whether the event being applied is a plain move (`Engine::plain`).
    plain: bool,
    /// The `TYPE` of the event before the one being applied (`Engine::previous`).
    previous: &'static str,
}

impl Engine {
    fn new() -> Self {
        Engine {
            t: Table::new(4),
            out: Replay::default(),
            red_fives: true,
            game: None,
            rounds: 0,
            index: 0,
            sticks_collected: false,
            round_ended: true,
            end_scores: None,
            partial_draws: Vec::new(),
            results_only: false,
            round_fits: false,
            plain: false,
            previous: "",
        }
    }

    /// The table as it is now (before the event in a `before` hook, after it in an
    /// `after` hook).
    pub fn table(&self) -> &Table {
        &self.t
    }

    /// The index of the event being applied (its row's place in the code).
    pub fn index(&self) -> usize {
        self.index
    }

    /// Whether the event being applied is a *plain move* (`Observer.dormant` in
    /// `mjlog/replay/observer.py`): a draw from the live wall or a discard declaring no
    /// riichi, in turn, of a tile the table allows, needing no finding. A dormant hook
    /// returns at once on a plain move while it sleeps.
    pub fn plain(&self) -> bool {
        self.plain
    }

    /// The `TYPE` of the record's event before the one being applied (the last event's
    /// for the first, as Python's `events[index - 1]`).
    pub fn previous(&self) -> &'static str {
        self.previous
    }

    /// Whether the record's game start says its table has red fives.
    pub fn red_fives(&self) -> bool {
        self.red_fives
    }

    /// The round's label (`E2-1`), empty before the first round (`Engine.round`).
    pub fn round(&self) -> String {
        if self.rounds == 0 {
            return String::new();
        }
        let t = &self.t;
        let wind = WINDS[t.wind.rem_euclid(4) as usize];
        format!("{wind}{}-{}", t.number, t.honba)
    }

    fn find(&mut self, code: &'static str, message: String, player: Option<usize>, note: bool) {
        if self.out.findings.len() >= PER_GAME {
            self.out.left_out += 1;
            return;
        }
        let player = player.filter(|&p| p < self.t.n);
        let (round, turn) = (self.round(), self.t.turn);
        self.out.findings.push(Finding {
            code,
            index: self.index,
            player,
            message,
            note,
            round,
            turn,
        });
    }

    fn error(&mut self, code: &'static str, message: String, player: Option<usize>) {
        self.find(code, message, player, false);
    }

    /// A note (severity info) at the event being applied (`Engine.note`): what an
    /// observer could not judge.
    pub fn note(&mut self, code: &'static str, message: String, player: Option<usize>) {
        self.find(code, message, player, true);
    }

    /// Whether `ev`, which fits the table, is a plain move (`Engine._hooked`).
    fn is_plain(&self, ev: &Ev) -> bool {
        let t = &self.t;
        match *ev {
            Ev::Draw {
                player,
                tile,
                rinshan,
            } => {
                !rinshan
                    && t.to_draw == player
                    && (0..UNKNOWN as i64).contains(&tile)
                    && !t.used[id(tile)]
                    && t.live_wall > 0
                    && !t.dealing
            }
            Ev::Discard {
                player,
                tile,
                riichi,
            } => {
                t.to_discard == player
                    && t.seat(player)
                        .is_some_and(|p| t.seats[p].concealed.has(id(tile)))
                    && !riichi
                    && !t.dealing
            }
            _ => false,
        }
    }

    fn t_str(&self, t: usize) -> String {
        tile_str(t, self.red_fives)
    }

    fn reused(&mut self, tile: usize, player: Option<usize>) {
        let text = self.t_str(tile);
        self.error(
            "tile-reused",
            format!("physical tile {text} (id {tile}) appears twice"),
            player,
        );
    }

    fn mark(&mut self, tile: usize, player: Option<usize>) {
        if self.t.used[tile] {
            self.reused(tile, player);
        }
        self.t.used[tile] = true;
    }

    fn apply(&mut self, ev: &Ev) {
        if !self.t.fits(ev) {
            let field = self.t.uneven(ev);
            let (what, n) = (ev.type_name(), self.t.n);
            let message = if field.is_empty() {
                format!(
                    "{what} cannot be applied to this table: it names a seat or tile outside it"
                )
            } else {
                format!("{what} gives {field} for another number of seats than the table's {n}")
            };
            self.error("unreplayable-event", message, None);
            return;
        }
        // Every seat below was checked by `fits`.
        let seat = |p: i64| usize::try_from(p).unwrap_or(0);
        match ev {
            Ev::Noop | Ev::Seat { .. } => {}
            Ev::GameStart {
                players,
                size,
                red_fives,
                lost,
                first_dealer,
            } => {
                self.red_fives = *red_fives;
                self.game = Some((*lost, *first_dealer));
                let n = usize::try_from(*players).unwrap_or(0).min(64);
                self.t.reset(n, Some(*size));
            }
            Ev::RoundStart { .. } => self.round_start(ev),
            Ev::Draw { player, tile, .. } => self.draw(seat(*player), id(*tile)),
            Ev::Discard {
                player,
                tile,
                riichi,
            } => self.discard(seat(*player), id(*tile), *riichi),
            Ev::Call {
                kind,
                player,
                from,
                called,
                tiles,
            } => self.call(*kind, seat(*player), seat(*from), id(*called), tiles),
            Ev::AddedKan {
                player,
                added,
                tiles,
                ..
            } => self.added_kan(seat(*player), id(*added), tiles),
            Ev::ClosedKan { player, tiles } => self.closed_kan(seat(*player), tiles),
            Ev::Kita { player, tile } => self.kita(seat(*player), id(*tile)),
            Ev::Flower { player, tile, from } => {
                self.flower(seat(*player), id(*tile), from.map(seat))
            }
            Ev::Riichi { player, scores } => self.riichi(seat(*player), *scores),
            Ev::Ready { player } => self.ready(seat(*player)),
            Ev::Dora { tile } => {
                let t = id(*tile);
                if self.t.used[t] {
                    self.reused(t, None);
                }
                self.t.used[t] = true;
            }
            Ev::Win { .. } => self.win(ev),
            Ev::DrawResult {
                abortive,
                deltas,
                before,
                ..
            } => self.draw_result(*abortive, deltas, *before),
            Ev::Chombo { player } => {
                let p = seat(*player);
                self.t.to_draw = -1;
                self.t.to_discard = -1;
                self.note(
                    "chombo-written",
                    format!(
                        "player {p}'s chombo, as the sheet writes it: the hand ends and the \
                         ruleset's chombo is charged"
                    ),
                    Some(p),
                );
            }
            Ev::RoundEnd { scores } => self.round_end(*scores),
            Ev::GameEnd { scores, .. } => self.game_end(*scores),
        }
    }

    fn round_start(&mut self, ev: &Ev) {
        let Ev::RoundStart {
            kyotaku,
            dora,
            results_only,
            scores,
            hands,
            ..
        } = ev
        else {
            return;
        };
        let n = self.t.n;
        let carried = *results_only && scores.is_empty();
        let sticks_held = if (scores.len() != n && !carried) || hands.len() != n {
            0
        } else {
            self.t.kyotaku
        };
        self.rounds += 1;
        self.results_only = *results_only;
        self.deal(ev);
        if !carried {
            if let Some(end) = &self.end_scores {
                if end.as_slice() != *scores {
                    let message = format!(
                        "round starts with scores {}, the last round ended with {}",
                        list_text(scores),
                        list_text(end)
                    );
                    self.error("start-scores-mismatch", message, None);
                }
            }
        }
        if self.rounds > 1 && self.round_ended && *kyotaku != sticks_held {
            let message =
                format!("round starts with {kyotaku} riichi sticks, the table holds {sticks_held}");
            self.error("kyotaku-mismatch", message, None);
        }
        for p in 0..self.t.n {
            let unknown = self.t.seats[p].unknown;
            if unknown != 0 {
                let message = format!(
                    "{unknown} of player {p}'s dealt tiles are not written down: tile checks \
                     cover the tiles named"
                );
                self.note("partial-record", message, Some(p));
            }
        }
        let mut dealt = vec![id(*dora)];
        dealt.extend(hands.iter().flat_map(|h| ids(h)).filter(|&t| t != UNKNOWN));
        let mut seen = TileSet::default();
        let doubled = dealt.iter().any(|&t| {
            let again = seen.has(t);
            seen.add(t);
            again
        });
        if doubled {
            let mut seen = TileSet::of(&[UNKNOWN]);
            for t in dealt {
                if seen.has(t) {
                    self.reused(t, None);
                }
                seen.add(t);
            }
        }
        self.sticks_collected = false;
        self.round_ended = false;
        self.end_scores = None;
        self.partial_draws.clear();
    }

    /// `TableState.round_start`: the deal.
    fn deal(&mut self, ev: &Ev) {
        let Ev::RoundStart {
            wind,
            number,
            honba,
            kyotaku,
            dealer,
            dora,
            results_only,
            scores,
            hands,
        } = ev
        else {
            return;
        };
        let t = &mut self.t;
        if ((!scores.is_empty() || !results_only) && scores.len() != t.n) || hands.len() != t.n {
            t.reset(hands.len(), t.size);
        }
        t.seats = vec![Seat::default(); t.n];
        t.ura.clear();
        t.used = fresh_used();
        for (u, h) in t.used.iter_mut().zip(t.here.iter()) {
            *u |= !h;
        }
        t.turn = 0;
        (t.to_draw, t.to_discard, t.last_discard, t.last_discarder) = (-1, -1, -1, -1);
        t.dealing = false;
        (t.wind, t.number, t.honba) = (*wind, *number, *honba);
        t.kyotaku = *kyotaku;
        let dealer = usize::try_from(*dealer).unwrap_or(0);
        t.dealer = dealer;
        if !scores.is_empty() || !results_only {
            t.scores = scores.to_vec();
        }
        let size = t.size.unwrap_or(Size {
            tiles: if t.n == 3 { 108 } else { 136 },
            dead_wall: 14,
            hand: 13,
        });
        let dealt: i64 = hands.iter().map(|h| h.len() as i64).sum();
        t.live_wall = size.tiles.wrapping_sub(size.dead_wall).wrapping_sub(dealt);
        t.used[id(*dora)] = true;
        for (seat, hand) in t.seats.iter_mut().zip(hands) {
            for &tile in hand.iter() {
                let tile = id(tile);
                if tile == UNKNOWN {
                    seat.unknown += 1;
                } else {
                    seat.concealed.add(tile);
                    t.used[tile] = true;
                }
            }
        }
        t.to_draw = dealer as i64;
        if hands.get(dealer).map(|h| h.len() as i64) == Some(size.hand.wrapping_add(1)) {
            (t.to_draw, t.to_discard, t.dealing) = (-1, dealer as i64, true);
        }
    }

    fn draw(&mut self, p: usize, tile: usize) {
        self.t.turn += 1;
        if self.t.to_draw != p as i64 {
            let message = format!("player {p} draws, but it is not their draw");
            self.error("out-of-turn", message, Some(p));
        }
        if self.t.live_wall.wrapping_sub(1) < 0 {
            self.error(
                "wall-exhausted",
                "a draw from an empty live wall".into(),
                Some(p),
            );
        }
        if tile == UNKNOWN {
            if !self.partial_draws.contains(&p) {
                self.partial_draws.push(p);
                let message = format!(
                    "player {p}'s draws are not all written down: tile checks cover the \
                     tiles named"
                );
                self.note("partial-record", message, Some(p));
            }
        } else if self.t.used[tile] {
            self.reused(tile, Some(p));
        }
        let t = &mut self.t;
        t.live_wall = t.live_wall.wrapping_sub(1);
        if tile == UNKNOWN {
            t.seats[p].unknown += 1;
        } else {
            t.used[tile] = true;
            t.seats[p].concealed.add(tile);
        }
        t.to_draw = -1;
        t.to_discard = if t.dealing { t.dealer as i64 } else { p as i64 };
        t.last_discard = -1;
    }

    fn discard(&mut self, p: usize, tile: usize, riichi: bool) {
        self.t.turn += 1;
        if self.t.to_discard != p as i64 {
            let message = format!("player {p} discards, but it is not their discard");
            self.error("out-of-turn", message, Some(p));
        }
        let seat = &self.t.seats[p];
        let (held, unknown) = (seat.concealed.has(tile), seat.unknown);
        if !held {
            if unknown > 0 && tile != UNKNOWN {
                self.mark(tile, Some(p));
            } else {
                let hand = tiles_str(seat.concealed.tiles(), self.red_fives);
                let message = format!(
                    "discards {} (id {tile}), which is not in hand {hand}",
                    self.t_str(tile)
                );
                self.error("discard-not-in-hand", message, Some(p));
            }
        }
        let t = &mut self.t;
        t.dealing = false;
        if held {
            t.seats[p].concealed.remove(tile);
        } else if unknown > 0 && tile != UNKNOWN {
            t.seats[p].unknown -= 1;
            t.used[tile] = true;
        }
        if riichi {
            t.seats[p].riichi = true;
        }
        t.to_discard = -1;
        t.to_draw = ((p + 1) % t.n) as i64;
        t.last_discard = tile as i64;
        t.last_discarder = p as i64;
    }

    /// Findings for tiles that leave a hand (`Engine._judge_take`).
    fn judge_take(&mut self, p: usize, tiles: &[usize], what: &str) {
        let (missing, unnamed) = self.t.missing(p, tiles);
        if unnamed {
            for &t in &missing {
                self.mark(t, Some(p));
            }
        } else if !missing.is_empty() {
            let ids: Vec<String> = missing.iter().map(usize::to_string).collect();
            let hand = tiles_str(self.t.seats[p].concealed.tiles(), self.red_fives);
            let message = format!(
                "{what} uses {} (ids {}), not in hand {hand}",
                tiles_str(missing.iter().copied(), self.red_fives),
                ids.join(", ")
            );
            self.error("call-not-in-hand", message, Some(p));
        }
    }

    fn call(&mut self, kind: CallKind, p: usize, from: usize, called: usize, tiles: &[i64]) {
        self.t.turn += 1;
        let takes = called as i64 == self.t.last_discard
            && from as i64 == self.t.last_discarder
            && p != from;
        let what = match kind {
            CallKind::Chi => "chi",
            CallKind::Pon => "pon",
            CallKind::OpenKan => "open_kan",
        };
        if !takes {
            let last = match usize::try_from(self.t.last_discard) {
                Ok(t) => self.t_str(t),
                Err(_) => "nothing".into(),
            };
            let message = format!(
                "{what} takes {} from player {from}; the last discard is {last} by player {}",
                self.t_str(called),
                self.t.last_discarder
            );
            self.error("call-not-last-discard", message, Some(p));
        }
        let taken: Vec<usize> = ids(tiles).into_iter().filter(|&t| t != called).collect();
        self.judge_take(p, &taken, what);
        let t = &mut self.t;
        t.take_from_hand(p, &taken);
        t.seats[p].melds.push(Meld {
            what,
            tiles: ids(tiles),
            called,
        });
        t.last_discard = -1;
        t.to_draw = -1;
        if kind == CallKind::OpenKan {
            t.after_kan(p);
        } else {
            t.to_discard = p as i64;
        }
    }

    fn own_turn_call(&mut self, p: usize, what: &str) {
        self.t.turn += 1;
        if self.t.to_discard != p as i64 {
            let message = format!("player {p} declares {what} when it is not their turn");
            self.error("out-of-turn", message, Some(p));
        }
    }

    fn closed_kan(&mut self, p: usize, tiles: &[i64]) {
        self.own_turn_call(p, "a closed kan");
        let tiles = ids(tiles);
        self.judge_take(p, &tiles, "closed kan");
        self.t.take_from_hand(p, &tiles);
        self.t.seats[p].melds.push(Meld {
            what: "closed_kan",
            tiles,
            called: UNKNOWN,
        });
        self.t.after_kan(p);
    }

    fn added_kan(&mut self, p: usize, added: usize, tiles: &[i64]) {
        self.own_turn_call(p, "an added kan");
        let pon = self.t.pon_of(p, added);
        if pon.is_none() {
            let message = format!("added kan of {} without a pon", self.t_str(added));
            self.error("call-not-in-hand", message, Some(p));
        }
        self.judge_take(p, &[added], "added kan");
        let t = &mut self.t;
        let meld = Meld {
            what: "added_kan",
            tiles: ids(tiles),
            called: added,
        };
        match pon {
            Some(i) => t.seats[p].melds[i] = meld,
            None => t.seats[p].melds.push(meld),
        }
        t.take_from_hand(p, &[added]);
        t.after_kan(p);
        t.last_discard = added as i64;
        t.last_discarder = p as i64;
    }

    fn kita(&mut self, p: usize, tile: usize) {
        self.own_turn_call(p, "kita");
        self.judge_take(p, &[tile], "kita");
        self.t.take_from_hand(p, &[tile]);
        self.t.to_discard = -1;
        self.t.to_draw = p as i64;
    }

    fn flower(&mut self, p: usize, tile: usize, from: Option<usize>) {
        self.t.turn += 1;
        if !self.t.dealing && self.t.to_discard != p as i64 && from.is_none() {
            let message = format!("player {p} sets a flower aside when it is not their turn");
            self.error("out-of-turn", message, Some(p));
        }
        match from {
            None => {
                self.judge_take(p, &[tile], "setting a flower aside");
                self.t.take_from_hand(p, &[tile]);
            }
            Some(q) => {
                let held = &mut self.t.seats[q].flowers;
                match held.iter().position(|&f| f == tile) {
                    Some(i) => {
                        held.remove(i);
                    }
                    None => {
                        let message = format!(
                            "takes flower {} from player {q}, who has not set it aside",
                            self.t_str(tile)
                        );
                        self.error("call-not-in-hand", message, Some(p));
                    }
                }
            }
        }
        self.t.seats[p].flowers.push(tile);
        self.t.to_discard = -1;
        self.t.to_draw = p as i64;
    }

    fn ready(&mut self, p: usize) {
        if !self.t.dealing || p == self.t.dealer {
            let message = format!(
                "player {p} declares 天聽, which only a player other than the dealer may, \
                 before the dealer's first discard"
            );
            self.error("out-of-turn", message, Some(p));
        }
    }

    fn riichi(&mut self, p: usize, scores: Option<&[i64]>) {
        let t = &mut self.t;
        if let Some(s) = t.scores.get_mut(p) {
            *s = s.wrapping_sub(1000);
        }
        t.kyotaku = t.kyotaku.wrapping_add(1);
        if let Some(scores) = scores {
            if scores != t.scores.as_slice() {
                let message = format!(
                    "scores after the riichi deposit are recorded as {}, the table has {}",
                    list_text(scores),
                    list_text(&t.scores)
                );
                self.error("riichi-scores-mismatch", message, Some(p));
            }
        }
    }

    fn judge_payment(&mut self, before: Option<&[i64]>, deltas: &[i64], collected: i64) {
        if let Some(before) = before {
            if before != self.t.scores.as_slice() {
                let message = format!(
                    "scores before payment are recorded as {}, the table has {}",
                    list_text(before),
                    list_text(&self.t.scores)
                );
                self.error("result-scores-mismatch", message, None);
            }
        }
        let sum = deltas.iter().fold(0i64, |a, &d| a.wrapping_add(d));
        if !deltas.is_empty() && (deltas.len() != self.t.n || sum != collected) {
            let message = format!(
                "deltas {} add up to {sum}, expected {collected} (riichi sticks collected)",
                list_text(deltas)
            );
            self.error("deltas-unbalanced", message, None);
        }
    }

    fn unpaid(&mut self, what: &str) {
        let message = format!("{what} not paid: no ruleset was given to pay a score sheet by");
        self.note("unjudged", message, None);
    }

    fn win(&mut self, ev: &Ev) {
        let Ev::Win {
            winner,
            from,
            win_tile,
            hand,
            ura,
            deltas,
            before,
            ..
        } = ev
        else {
            return;
        };
        let w = usize::try_from(*winner).unwrap_or(0);
        let ura = ids(ura);
        if self.results_only {
            let first = !self.sticks_collected;
            let collected = if first {
                self.t.kyotaku.wrapping_mul(1000)
            } else {
                0
            };
            self.judge_payment(*before, deltas, collected);
            if deltas.is_empty() {
                self.unpaid("win");
            }
        } else {
            self.judge_win_hand(w, *from, id(*win_tile), hand);
            for &t in &ura {
                if t != UNKNOWN && !self.t.ura.contains(&t) && self.t.used[t] {
                    self.reused(t, None);
                }
            }
            let collected = if self.sticks_collected {
                0
            } else {
                self.t.kyotaku.wrapping_mul(1000)
            };
            self.judge_payment(*before, deltas, collected);
        }
        self.sticks_collected = true;
        let t = &mut self.t;
        for u in ura {
            if !t.ura.contains(&u) {
                t.used[u] = true;
                t.ura.push(u);
            }
        }
        t.pay(deltas);
        t.kyotaku = 0;
        t.to_draw = -1;
        t.to_discard = -1;
    }

    /// `win-hand-mismatch`: the record's winning hand against the replay's.
    fn judge_win_hand(&mut self, w: usize, from: i64, win_tile: usize, written: &[i64]) {
        let seat = &self.t.seats[w];
        let mut hand = seat.concealed;
        if from != w as i64 {
            hand.add(win_tile);
        }
        let written_ids = ids(written);
        let record = TileSet::of(&written_ids);
        let unknown = seat.unknown;
        let ok = if unknown != 0 && record.has(UNKNOWN) {
            hand.subset_of(&record)
        } else if unknown != 0 {
            let named = record.minus(&hand);
            let ok = hand.subset_of(&record) && named.len() == unknown && !named.has(UNKNOWN);
            if ok {
                for t in named.tiles().collect::<Vec<_>>() {
                    self.mark(t, Some(w));
                }
            }
            ok
        } else {
            hand == record
        };
        if !ok {
            let message = format!(
                "the record's winning hand is {}, the replay holds {}",
                tiles_str(written_ids, self.red_fives),
                tiles_str(hand.tiles(), self.red_fives)
            );
            self.error("win-hand-mismatch", message, Some(w));
        }
    }

    fn draw_result(&mut self, abortive: bool, deltas: &[i64], before: Option<&[i64]>) {
        self.judge_payment(before, deltas, 0);
        if self.results_only && deltas.is_empty() && !abortive {
            self.unpaid("exhaustive_draw");
        }
        self.t.pay(deltas);
        self.t.to_draw = -1;
        self.t.to_discard = -1;
    }

    fn round_end(&mut self, scores: Option<&[i64]>) {
        if let Some(scores) = scores {
            if scores != self.t.scores.as_slice() {
                let message = format!(
                    "scores after the round are recorded as {}, the replay has {}",
                    list_text(scores),
                    list_text(&self.t.scores)
                );
                self.error("round-end-scores-mismatch", message, None);
            }
        }
        self.end_scores = Some(self.t.scores.clone());
        self.round_ended = true;
    }

    fn game_end(&mut self, scores: Option<&[i64]>) {
        let Some(scores) = scores else { return };
        let sticks = match self.game {
            Some((false, _)) => self.t.kyotaku,
            _ => 0,
        };
        let first_dealer = self.game.map_or(0, |g| g.1);
        let expected = final_scores(&self.t.scores, sticks, first_dealer);
        if scores != expected.as_slice() {
            let message = format!(
                "final scores are recorded as {}, the replay has {}",
                list_text(scores),
                list_text(&expected)
            );
            self.error("final-scores-mismatch", message, None);
        }
    }
}

/// A game's final scores: sticks left on the table go to first place, ties to the seat
/// nearer the first dealer (twin of `mjlog.replay.engine.final_scores`).
pub fn final_scores(scores: &[i64], sticks: i64, first_dealer: i64) -> Vec<i64> {
    let mut out = scores.to_vec();
    let n = out.len() as i64;
    if sticks != 0 && n > 0 {
        let key = |p: usize| (-i128::from(out[p]), (p as i64 - first_dealer).rem_euclid(n));
        let top = (0..out.len()).min_by_key(|&p| key(p)).unwrap_or(0);
        out[top] = out[top].wrapping_add(sticks.wrapping_mul(1000));
    }
    out
}

/// What watches a replay (twin of `mjlog.replay.observer.Observer`): its hooks run
/// before and after the engine applies each event, in the order the observers are
/// given, with the table readable (`Engine::table`). Observers see the game start, the
/// round starts and the game end, and every other event of a round whose start fitted
/// the table; an event that does not fit the table (`unreplayable-event`) no observer
/// sees. A hook matches on the event (`Ev`) for the kinds it looks at; one with a
/// dormant Python twin returns at once on `Engine::plain` moves while it sleeps.
pub trait Observer {
    /// Before `ev` is applied: the table as it was.
    fn before(&mut self, engine: &mut Engine, ev: &Ev);
    /// After `ev` is applied: the table as it is now.
    fn after(&mut self, engine: &mut Engine, ev: &Ev);
}

/// Replay a whole game's code and return its findings; an error for a malformed code
/// (nothing is replayed then).
pub fn replay(words: &[i64]) -> Result<Replay, CodeError> {
    replay_observed(words, &mut [])
}

/// `replay` with `observers` driven around each event (`Engine.run` with observers): the
/// engine's findings, with the notes the observers added, in the order made.
pub fn replay_observed(
    words: &[i64],
    observers: &mut [&mut dyn Observer],
) -> Result<Replay, CodeError> {
    let events = decode(words)?;
    let mut engine = Engine::new();
    let count = events.len();
    for (i, ev) in events.iter().enumerate() {
        engine.index = i;
        engine.previous = events[(i + count - 1) % count].type_name();
        let outside = matches!(
            ev,
            Ev::GameStart { .. } | Ev::RoundStart { .. } | Ev::GameEnd { .. }
        );
        if observers.is_empty() || !(engine.round_fits || outside) || !engine.t.fits(ev) {
            if matches!(ev, Ev::RoundStart { .. }) {
                engine.round_fits = engine.t.fits(ev);
            }
            engine.apply(ev);
            continue;
        }
        engine.plain = engine.is_plain(ev);
        for o in observers.iter_mut() {
            o.before(&mut engine, ev);
        }
        engine.apply(ev);
        if matches!(ev, Ev::RoundStart { .. }) {
            engine.round_fits = true;
        }
        for o in observers.iter_mut() {
            o.after(&mut engine, ev);
        }
    }
    let mut out = engine.out;
    if engine.t.n > 0 {
        out.scores = engine.t.scores.clone();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine_code::kind as k;

    fn start4() -> Vec<i64> {
        let mut code = vec![k::GAME_START, 4, 136, 14, 13, 1, 0, 0];
        code.extend([k::ROUND_START, 0, 1, 0, 0, 0, 100, 0, 4]);
        code.extend([25000; 4]);
        code.push(4);
        for p in 0..4 {
            code.push(13);
            code.extend((0..13).map(|i| p * 13 + i));
        }
        code
    }

    #[test]
    fn a_plain_draw_and_discard_find_nothing() {
        let mut code = start4();
        code.extend([k::DRAW, 0, 60, 0, k::DISCARD, 0, 60, 1]);
        let out = replay(&code).unwrap();
        assert_eq!(out.findings, vec![]);
    }

    #[test]
    fn out_of_turn_and_reused_tiles_are_found_where_they_are() {
        let mut code = start4();
        code.extend([k::DRAW, 1, 5, 0]);
        let out = replay(&code).unwrap();
        let codes: Vec<_> = out.findings.iter().map(|f| (f.code, f.index)).collect();
        assert_eq!(codes, vec![("out-of-turn", 2), ("tile-reused", 2)]);
        assert_eq!(
            out.findings[1].message,
            "physical tile 2m (id 5) appears twice"
        );
        assert_eq!(out.findings[0].round, "E1-0");
        assert_eq!(out.findings[0].turn, 1);
    }

    #[test]
    fn a_seat_outside_the_table_is_unreplayable() {
        let mut code = start4();
        code.extend([k::DISCARD, 7, 0, 0]);
        let out = replay(&code).unwrap();
        assert_eq!(out.findings[0].code, "unreplayable-event");
        assert_eq!(out.findings[0].player, None);
    }

    #[test]
    fn final_scores_give_sticks_to_first_place() {
        assert_eq!(
            final_scores(&[100, 300, 300, 0], 2, 2),
            vec![100, 300, 2300, 0]
        );
        assert_eq!(final_scores(&[], 2, 0), Vec::<i64>::new());
    }

    /// A small xorshift generator: the fuzz-style tests need no dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> i64 {
            (self.next() % n) as i64
        }
        fn word(&mut self) -> i64 {
            match self.below(8) {
                0 => self.next() as i64,
                1 => -self.below(3),
                2 => self.below(150),
                3 => i64::MAX - self.below(2),
                4 => i64::MIN + self.below(2),
                _ => self.below(6),
            }
        }
    }

    #[test]
    fn random_codes_never_panic() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20_000 {
            let len = rng.below(80) as usize;
            let code: Vec<i64> = (0..len).map(|_| rng.word()).collect();
            let _ = replay(&code);
        }
    }

    #[test]
    fn mutated_games_never_panic() {
        let mut rng = Rng(12345);
        let mut base = start4();
        for i in 0..60 {
            let p = i % 4;
            base.extend([k::DRAW, p, 52 + i, 0, k::DISCARD, p, 52 + i, 0]);
        }
        base.extend([k::RIICHI, 1, 4, 24000, 25000, 25000, 25000]);
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
        base.extend([k::ROUND_END, 4, 25000, 25000, 25000, 25000]);
        base.extend([k::GAME_END, 4, 25000, 25000, 25000, 25000, 4]);
        let mut decoded = 0;
        for _ in 0..20_000 {
            let mut code = base.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(code.len() as u64) as usize;
                match rng.below(3) {
                    0 => code[at] = rng.word(),
                    1 => {
                        code.remove(at);
                    }
                    _ => code.insert(at, rng.word()),
                }
            }
            decoded += usize::from(replay(&code).is_ok());
        }
        assert!(decoded > 1000, "too few mutants decode: {decoded}");
    }
}

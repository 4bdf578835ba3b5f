//! The wall proof of a game, the twin of `mjlog/wall/verify.py` for Tenhou seeds and
//! published walls: each round's dealt hands, dice, live-wall and replacement draws, dora
//! and ura indicators compared with the round's wall.
//!
//! It is its own pass over the event code of `mjlog/replay/code.py` (`engine_code`),
//! following the table as `mjlog.replay.engine.Engine` does as far as the check sees it:
//! an event that does not fit the table (`TableState.fits`) is not seen, nor any event of
//! a round whose start did not fit; the turn counts the moves that fitted. What the code
//! does not hold comes in `Input`, built in Python from the record
//! (`mjlog/wall/native.py`): the game's parsed seed (or why there is none), each round's
//! recorded dice and published wall (read, with its commitment's problems, by
//! `mjlog.wall.published`) or own seed. A stated
//! table wall (`RoundStart.wall`) is not handled here: that game takes the Python route.

use crate::engine_code::{
    decode, kind_of, list_text, tile_str, tiles_here, CodeError, Ev, Size, SLOTS,
};
use crate::tenhou_shuffle::Shuffler;

/// How many deals of a seed are tried to place a record's first round (`SEARCH_DEALS`).
pub const SEARCH_DEALS: usize = 64;
const WINDS: [char; 4] = ['E', 'S', 'W', 'N'];
const RED_FIVES: [i64; 3] = [16, 52, 88];

/// A seed's form (`mjlog.wall.tenhou_shuffle.SeedForm`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Base64,
    Hex,
    Raw,
}

/// A parsed Tenhou seed: its form and key words.
#[derive(Clone, Debug)]
pub struct Seed {
    pub form: Form,
    pub words: Vec<u32>,
}

/// One round's wall, whichever way it was found (`mjlog.wall.source.WallSource`).
#[derive(Clone, Debug)]
pub struct RoundWall {
    /// Whether its tiles name kinds only (a published wall).
    pub by_kind: bool,
    pub dice: Vec<i64>,
    /// The dealt hands by seat (a published wall's), or none: then `yama` deals them.
    pub dealt: Vec<Vec<i64>>,
    /// A Tenhou wall's tiles, its players and the index of the dealer's first draw.
    pub yama: Option<(Vec<u8>, usize, usize)>,
    /// The live wall in drawing order (past its end: no tile).
    pub live: Vec<i64>,
    pub rinshan: Vec<i64>,
    pub dora: Vec<i64>,
    pub ura: Vec<i64>,
}

impl RoundWall {
    /// A Tenhou round's wall from its shuffled `yama` and dice, read with the layout of
    /// `players` and `form` (`tenhou_shuffle.LAYOUTS`).
    pub fn tenhou(yama: Vec<u8>, dice: (u8, u8), players: usize, form: Form) -> Self {
        let size = yama.len();
        let base = if players == 4 { 4 } else { 8 };
        let swap = usize::from(form == Form::Base64);
        let first_draw = size - 13 * players - 1;
        let at = |i: usize| i64::from(yama[i]);
        // the live wall runs down to the dead wall's 14 tiles; past it, no tile
        let live: Vec<i64> = (14..=first_draw).rev().map(at).collect();
        let dora = (0..5).map(|k| at(base + 2 * k + swap)).collect();
        let ura = (0..5).map(|k| at(base + 2 * k + 1 - swap)).collect();
        let rinshan = (0..base).map(|k| at(k ^ swap)).collect();
        RoundWall {
            by_kind: false,
            dice: vec![i64::from(dice.0), i64::from(dice.1)],
            dealt: Vec::new(),
            yama: Some((yama, players, first_draw)),
            live,
            rinshan,
            dora,
            ura,
        }
    }

    /// Each seat's dealt tiles (`TenhouWall.hands`, or the published wall's).
    pub fn hands(&self, dealer: usize) -> Vec<Vec<i64>> {
        let Some((yama, n, _)) = &self.yama else {
            return self.dealt.clone();
        };
        let n = *n;
        let mut out = vec![Vec::with_capacity(13); n];
        let mut pos = yama.len() - 1;
        for _ in 0..3 {
            for k in 0..n {
                let hand = &mut out[(dealer + k) % n];
                hand.extend((0..4).map(|d| i64::from(yama[pos - d])));
                pos -= 4;
            }
        }
        for k in 0..n {
            out[(dealer + k) % n].push(i64::from(yama[pos]));
            pos -= 1;
        }
        out
    }

    fn draw(&self, k: usize) -> i64 {
        self.live.get(k).copied().unwrap_or(-1)
    }
}

/// What a round brings beside the code.
#[derive(Clone, Debug)]
pub enum RoundIn {
    /// Nothing of its own.
    Plain,
    /// A published wall (`None`: unreadable) and the problems found with it, each with
    /// whether it is said once a record.
    Published {
        problems: Vec<(String, String)>,
        wall: Option<RoundWall>,
    },
    /// Its own seed (early 2009).
    Seed(Seed),
    /// Its own seed, which cannot be read: why.
    SeedError(String),
}

/// What the wall proof needs beside the code.
#[derive(Clone, Debug)]
pub struct Input {
    /// The game's seed, or why there is none (`None` and the reason: no known seed form).
    pub seed: Result<Seed, String>,
    /// By round start in the record's order: the recorded dice and what it brings.
    pub rounds: Vec<(Vec<i64>, RoundIn)>,
}

/// A finding of the wall proof, as `engine::Finding` (index: the event's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub code: &'static str,
    pub index: usize,
    pub player: Option<usize>,
    pub message: String,
    pub note: bool,
    pub round: String,
    pub turn: i64,
}

/// The codes a round's wall problems may have (`mjlog.wall.published`'s and `walls_for`'s).
pub const PROBLEMS: [&str; 6] = [
    "wall-uncommitted",
    "wall-unverifiable",
    "wall-excerpt",
    "wall-commitment-mismatch",
    "wall-undealable",
    "wall-dealt-mismatch",
];

/// A problem's code as a finding holds it (`wall-dealt-mismatch` for another: the binding
/// refuses any, `PROBLEMS`).
fn code_name(code: &str) -> &'static str {
    PROBLEMS
        .into_iter()
        .find(|&c| c == code)
        .unwrap_or("wall-dealt-mismatch")
}

fn is_note(code: &str) -> bool {
    matches!(
        code,
        "wall-uncommitted" | "wall-unverifiable" | "wall-excerpt"
    )
}

fn label(wind: i64, number: i64, honba: i64) -> String {
    format!("{}{number}-{honba}", WINDS[wind.rem_euclid(4) as usize])
}

fn sorted(v: &[i64]) -> Vec<i64> {
    let mut out = v.to_vec();
    out.sort_unstable();
    out
}

/// A round start: its index, dealer, hands, whether a score sheet's, its label.
type Start<'a> = (usize, i64, &'a [&'a [i64]], bool, String);

/// Every round's wall from the game's seed (`_seeded`), with the notes for the first.
fn seeded(
    seed: &Seed,
    first: Option<&(usize, i64, &[&[i64]])>,
    rounds: usize,
    players: usize,
    said: &mut Vec<(String, String, bool)>,
) -> Vec<Option<RoundWall>> {
    let Some(&(_, dealer, hands)) = first else {
        return Vec::new();
    };
    let raw = seed.form == Form::Raw;
    let (Ok(mut shuffler), true) = (
        Shuffler::new(&seed.words, raw),
        players == 3 || players == 4,
    ) else {
        // Python fails on these (an empty key, another table): no wall, no note
        return vec![None; rounds];
    };
    let next = |s: &mut Shuffler| {
        let w = s.next_wall(players as u32).expect("3 or 4 players");
        RoundWall::tenhou(w.yama, w.dice, players, seed.form)
    };
    let mut found = None;
    for deal_no in 0..SEARCH_DEALS {
        let wall = next(&mut shuffler);
        let dealt = wall.hands(usize::try_from(dealer).unwrap_or(0));
        if dealt.iter().zip(hands).all(|(a, b)| sorted(a) == sorted(b)) {
            found = Some((deal_no, wall));
            break;
        }
    }
    let Some((deal_no, wall)) = found else {
        let msg = format!(
            "no deal among the first {SEARCH_DEALS} of this seed gives the recorded hands: \
             the record's tiles do not come from its seed"
        );
        said.push(("wall-dealt-mismatch".into(), msg, false));
        return vec![None; rounds];
    };
    if deal_no > 0 {
        let msg = format!(
            "the record's first round is deal {} of its seed (the record is an excerpt)",
            deal_no + 1
        );
        said.push(("wall-excerpt".into(), msg, false));
    }
    let mut walls = vec![Some(wall)];
    walls.extend((1..rounds).map(|_| Some(next(&mut shuffler))));
    walls
}

/// Each round's wall and the notes made (`walls_for`): the notes are findings at their
/// round starts.
fn walls_for(evs: &[Ev], input: &Input, players: usize) -> (Vec<Option<RoundWall>>, Vec<Finding>) {
    let starts: Vec<Start> = evs
        .iter()
        .enumerate()
        .filter_map(|(i, ev)| match ev {
            Ev::RoundStart {
                wind,
                number,
                honba,
                dealer,
                results_only,
                hands,
                ..
            } => Some((
                i,
                *dealer,
                hands.as_slice(),
                *results_only,
                label(*wind, *number, *honba),
            )),
            _ => None,
        })
        .collect();
    let n = starts.len();
    let mut said: Vec<Vec<(String, String, bool)>> = vec![Vec::new(); n];
    let (mut walls, mut why, is_seeded) = match &input.seed {
        Ok(seed) => {
            let first = starts.first().map(|s| (s.0, s.1, s.2));
            let mut notes = Vec::new();
            let w = seeded(seed, first.as_ref(), n, players, &mut notes);
            if let Some(s) = said.first_mut() {
                s.extend(notes);
            }
            (w, String::new(), true)
        }
        Err(why) => (vec![None; n], why.clone(), false),
    };
    walls.resize(n, None);
    for (r, start) in starts.iter().enumerate() {
        if walls[r].is_some() {
            continue;
        }
        let brings = input.rounds.get(r).map_or(&RoundIn::Plain, |x| &x.1);
        if let RoundIn::Published { problems, wall } = brings {
            walls[r] = wall.clone();
            said[r].extend(
                problems
                    .iter()
                    .map(|(c, m)| (c.clone(), m.clone(), c == "wall-uncommitted")),
            );
        } else if !is_seeded && !start.3 {
            match brings {
                RoundIn::Seed(seed) => {
                    let raw = seed.form == Form::Raw;
                    let wall = Shuffler::new(&seed.words, raw)
                        .and_then(|mut s| s.next_wall(start.2.len() as u32));
                    match wall {
                        Ok(w) => {
                            let p = start.2.len();
                            walls[r] = Some(RoundWall::tenhou(w.yama, w.dice, p, seed.form));
                        }
                        Err(e) => why = format!("this round's shuffle: {e}"),
                    }
                }
                RoundIn::SeedError(msg) => why = msg.clone(),
                _ => {}
            }
            if walls[r].is_none() {
                let msg = format!("the wall cannot be verified: {why}");
                said[r].push(("wall-unverifiable".into(), msg, false));
            }
        }
    }
    let mut told: Vec<String> = Vec::new();
    let mut notes = Vec::new();
    for (start, list) in starts.iter().zip(said) {
        for (code, msg, once) in list {
            if once && told.contains(&code) {
                continue;
            }
            notes.push(Finding {
                code: code_name(&code),
                index: start.0,
                player: None,
                message: msg,
                note: is_note(&code),
                round: start.4.clone(),
                turn: 0,
            });
            told.push(code);
        }
    }
    (walls, notes)
}

/// The table as far as the check follows it: its seats and tiles, and the replay's place.
struct Table {
    n: usize,
    size: Option<Size>,
    here: [bool; SLOTS],
    round: String,
    turn: i64,
    round_fits: bool,
}

impl Table {
    fn seat(&self, p: i64) -> bool {
        usize::try_from(p).is_ok_and(|p| p < self.n)
    }

    fn tile(here: &[bool; SLOTS], t: i64) -> bool {
        usize::try_from(t).is_ok_and(|t| t < SLOTS && here[t])
    }

    fn all(here: &[bool; SLOTS], tiles: &[i64]) -> bool {
        tiles.iter().all(|&t| Self::tile(here, t))
    }

    /// Whether a per-seat field is of another length than the seats (`TableState.uneven`).
    fn uneven(&self, ev: &Ev) -> bool {
        let n = match ev {
            Ev::RoundStart { hands, .. } => hands.len(),
            _ => self.n,
        };
        let off = |v: Option<&[i64]>| v.is_some_and(|v| !v.is_empty() && v.len() != n);
        let count_off = |c: i64| c > 0 && usize::try_from(c) != Ok(n);
        match ev {
            Ev::RoundStart { scores, .. } => off(Some(scores)),
            Ev::Riichi { scores, .. } | Ev::RoundEnd { scores } => off(*scores),
            Ev::GameEnd { scores, points } => off(*scores) || count_off(*points),
            Ev::Win { deltas, before, .. } => off(Some(deltas)) || off(*before),
            Ev::DrawResult {
                deltas,
                before,
                hands,
                ..
            } => off(Some(deltas)) || off(*before) || count_off(*hands),
            _ => false,
        }
    }

    /// Whether `ev` names only seats and tiles of this table (`TableState.fits`).
    fn fits(&self, ev: &Ev) -> bool {
        let here = &self.here;
        let tile = |t: i64| Self::tile(here, t);
        let seat = |p: i64| self.seat(p);
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
                    && Self::tile(&here, *dora)
                    && hands.iter().all(|h| Self::all(&here, h))
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
            } => seat(*player) && seat(*from) && tile(*called) && Self::all(here, tiles),
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
                    && Self::all(here, tiles)
            }
            Ev::ClosedKan { player, tiles } => seat(*player) && Self::all(here, tiles),
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
                    && Self::all(here, hand)
                    && Self::all(here, dora)
                    && Self::all(here, ura)
            }
            Ev::DrawResult { .. } | Ev::RoundEnd { .. } | Ev::GameEnd { .. } => true,
        };
        ok && !self.uneven(ev)
    }

    /// Apply a fitting event as far as the check follows it (seats, round, turn).
    fn apply(&mut self, ev: &Ev) {
        match ev {
            Ev::GameStart { players, size, .. } => {
                self.n = usize::try_from(*players).unwrap_or(0).min(64);
                self.size = Some(*size);
                self.here = tiles_here(self.size, self.n);
            }
            Ev::RoundStart {
                wind,
                number,
                honba,
                results_only,
                scores,
                hands,
                ..
            } => {
                if ((!scores.is_empty() || !results_only) && scores.len() != self.n)
                    || hands.len() != self.n
                {
                    self.n = hands.len();
                    self.here = tiles_here(self.size, self.n);
                }
                self.turn = 0;
                self.round = label(*wind, *number, *honba);
            }
            Ev::Draw { .. }
            | Ev::Discard { .. }
            | Ev::Call { .. }
            | Ev::AddedKan { .. }
            | Ev::ClosedKan { .. }
            | Ev::Kita { .. }
            | Ev::Flower { .. } => self.turn += 1,
            _ => {}
        }
    }
}

/// The observer (`WallCheck`): the round's wall and what of it has been used.
struct Check<'a> {
    walls: &'a [Option<RoundWall>],
    input: &'a Input,
    red: bool,
    /// Round starts seen, fitting or not; `rounds`: those that fitted.
    starts: usize,
    rounds: usize,
    wall: Option<&'a RoundWall>,
    draws: usize,
    rinshan: usize,
    doras: usize,
    findings: Vec<Finding>,
}

impl Check<'_> {
    fn find(&mut self, t: &Table, index: usize, code: &'static str, msg: String, p: Option<usize>) {
        self.findings.push(Finding {
            code,
            index,
            player: p,
            message: msg,
            note: false,
            round: t.round.clone(),
            turn: t.turn,
        });
    }

    fn by_kind(&self) -> bool {
        self.wall.is_some_and(|w| w.by_kind)
    }

    fn key(&self, tile: i64) -> (u8, bool) {
        let k = usize::try_from(tile).map_or(255, kind_of);
        (k, self.red && RED_FIVES.contains(&tile))
    }

    fn t(&self, tile: i64) -> String {
        let Ok(id) = usize::try_from(tile) else {
            return "no tile (the live wall is used up)".into();
        };
        if self.by_kind() {
            tile_str(id, self.red)
        } else {
            format!("{} (id {tile})", tile_str(id, self.red))
        }
    }

    fn giver(&self) -> &'static str {
        if self.by_kind() {
            "the wall"
        } else {
            "the shuffle"
        }
    }

    fn differ(&self, got: i64, want: Option<i64>) -> bool {
        match want {
            None => true,
            Some(w) if w < 0 => true,
            Some(w) if self.by_kind() => self.key(got) != self.key(w),
            Some(w) => got != w,
        }
    }

    fn not_dealt(&self, want: &[i64], got: &[i64]) -> Vec<i64> {
        if self.by_kind() {
            let mut left: Vec<(u8, bool)> = want.iter().map(|&t| self.key(t)).collect();
            let mut out = Vec::new();
            for t in sorted(got) {
                match left.iter().position(|&k| k == self.key(t)) {
                    Some(i) => {
                        left.swap_remove(i);
                    }
                    None => out.push(t),
                }
            }
            return out;
        }
        if sorted(want) == sorted(got) {
            return Vec::new();
        }
        let mut out: Vec<i64> = got.iter().copied().filter(|t| !want.contains(t)).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn round_start(&mut self, t: &Table, i: usize, dealer: i64, dora: i64, hands: &[&[i64]]) {
        let r = self.rounds;
        self.rounds += 1;
        self.wall = self.walls.get(r).and_then(Option::as_ref);
        (self.draws, self.rinshan, self.doras) = (0, 0, 0);
        let Some(wall) = self.wall else { return };
        let dealt = wall.hands(usize::try_from(dealer).unwrap_or(0));
        for (seat, (want, got)) in dealt.iter().zip(hands).enumerate() {
            let extra = self.not_dealt(want, got);
            if !extra.is_empty() {
                let names: Vec<String> = extra.iter().map(|&x| self.t(x)).collect();
                let msg = format!(
                    "seat {seat} is dealt {}, which {} does not deal to it",
                    names.join(", "),
                    self.giver()
                );
                self.find(t, i, "wall-dealt-mismatch", msg, Some(seat));
            }
        }
        // the dice of the round start seen, which is not round `r` after one that did not fit
        let dice = self
            .input
            .rounds
            .get(self.starts - 1)
            .map_or(&[][..], |x| &x.0[..]);
        if !dice.is_empty() && dice != wall.dice.as_slice() {
            let msg = format!(
                "dice {} recorded, the shuffle rolls {}",
                list_text(dice),
                list_text(&wall.dice)
            );
            self.find(t, i, "wall-dice-mismatch", msg, None);
        }
        self.dora(t, i, dora);
    }

    fn dora(&mut self, t: &Table, i: usize, tile: i64) {
        let Some(wall) = self.wall else { return };
        let want = wall.dora.get(self.doras).copied();
        if self.differ(tile, want) {
            let msg = format!(
                "dora indicator {} is {}, {} shows {}",
                self.doras + 1,
                self.t(tile),
                self.giver(),
                self.t(want.unwrap_or(-1))
            );
            self.find(t, i, "wall-dora-mismatch", msg, None);
        }
        self.doras += 1;
    }

    fn draw(&mut self, t: &Table, i: usize, p: i64, tile: i64, rinshan: bool) {
        let Some(wall) = self.wall else { return };
        let p = usize::try_from(p).ok();
        if rinshan {
            let want = wall.rinshan.get(self.rinshan).copied();
            self.rinshan += 1;
            if self.differ(tile, want) {
                let msg = format!(
                    "replacement draw {} is {}, {} gives {}",
                    self.rinshan,
                    self.t(tile),
                    self.giver(),
                    want.map_or("none".into(), |w| self.t(w))
                );
                self.find(t, i, "wall-rinshan-mismatch", msg, p);
            }
        } else {
            let want = wall.draw(self.draws);
            self.draws += 1;
            if self.differ(tile, Some(want)) {
                let msg = format!(
                    "live-wall draw {} is {}, {} gives {}",
                    self.draws,
                    self.t(tile),
                    self.giver(),
                    self.t(want)
                );
                self.find(t, i, "wall-draw-mismatch", msg, p);
            }
        }
    }

    fn win(&mut self, t: &Table, i: usize, winner: i64, ura: &[i64]) {
        let Some(wall) = self.wall else { return };
        for (k, &tile) in ura.iter().take(wall.ura.len()).enumerate() {
            let want = wall.ura[k];
            if self.differ(tile, Some(want)) {
                let msg = format!(
                    "ura indicator {} is {}, {} shows {}",
                    k + 1,
                    self.t(tile),
                    self.giver(),
                    self.t(want)
                );
                self.find(t, i, "wall-ura-mismatch", msg, usize::try_from(winner).ok());
            }
        }
    }
}

/// The wall proof of a game's code with `input` (`mjlog.wall.verify.verify`): the notes
/// on its walls, then what the replay finds against them, in the Python order; an error
/// for a malformed code.
pub fn verify(words: &[i64], input: &Input) -> Result<Vec<Finding>, CodeError> {
    let evs = decode(words)?;
    let Some(Ev::GameStart {
        players, red_fives, ..
    }) = evs.first()
    else {
        return Ok(Vec::new());
    };
    let players = usize::try_from(*players).unwrap_or(0);
    let (walls, notes) = walls_for(&evs, input, players);
    if walls.iter().all(Option::is_none) {
        return Ok(notes);
    }
    let mut table = Table {
        n: 4,
        size: None,
        here: tiles_here(None, 4),
        round: String::new(),
        turn: 0,
        round_fits: false,
    };
    let mut check = Check {
        walls: &walls,
        input,
        red: *red_fives,
        starts: 0,
        rounds: 0,
        wall: None,
        draws: 0,
        rinshan: 0,
        doras: 0,
        findings: notes,
    };
    for (i, ev) in evs.iter().enumerate() {
        let is_start = matches!(ev, Ev::RoundStart { .. });
        if is_start {
            check.starts += 1;
        }
        if !table.fits(ev) {
            if is_start {
                table.round_fits = false;
            }
            continue;
        }
        table.apply(ev);
        if is_start {
            table.round_fits = true;
        }
        if !table.round_fits {
            continue;
        }
        match ev {
            Ev::RoundStart {
                dealer,
                dora,
                hands,
                ..
            } => check.round_start(&table, i, *dealer, *dora, hands),
            Ev::Draw {
                player,
                tile,
                rinshan,
            } => check.draw(&table, i, *player, *tile, *rinshan),
            Ev::Dora { tile } if check.wall.is_some_and(|w| check.doras < w.dora.len()) => {
                check.dora(&table, i, *tile);
            }
            Ev::Win { winner, ura, .. } => check.win(&table, i, *winner, ura),
            _ => {}
        }
    }
    Ok(check.findings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> Seed {
        Seed {
            form: Form::Base64,
            words: vec![1, 2, 3, 4],
        }
    }

    /// A game of one round dealt by `seed`'s `deal`-th wall, the dealer drawing `draws`
    /// live-wall tiles, the last one's id xor `bump`.
    fn game(deal: usize, draws: usize, bump: i64) -> Vec<i64> {
        let mut s = Shuffler::new(&seed().words, false).unwrap();
        let mut w = s.next_wall(4).unwrap();
        for _ in 0..deal {
            w = s.next_wall(4).unwrap();
        }
        let wall = RoundWall::tenhou(w.yama, w.dice, 4, Form::Base64);
        let mut code = vec![1, 4, 136, 14, 13, 1, 0, 0];
        code.extend([
            2,
            0,
            1,
            0,
            0,
            0,
            wall.dora[0],
            0,
            4,
            25000,
            25000,
            25000,
            25000,
            4,
        ]);
        for hand in wall.hands(0) {
            code.push(hand.len() as i64);
            code.extend(hand);
        }
        for k in 0..draws {
            let p = (k % 4) as i64;
            let tile = wall.draw(k) ^ if k == draws - 1 { bump } else { 0 };
            code.extend([3, p, tile, 0, 4, p, tile, 0]);
        }
        code
    }

    fn input(seed: Seed) -> Input {
        Input {
            seed: Ok(seed),
            rounds: vec![(Vec::new(), RoundIn::Plain)],
        }
    }

    #[test]
    fn a_game_dealt_by_its_seed_has_no_finding() {
        assert_eq!(verify(&game(0, 6, 0), &input(seed())).unwrap(), vec![]);
    }

    #[test]
    fn a_changed_draw_is_found_at_its_event_with_its_turn() {
        let out = verify(&game(0, 3, 1), &input(seed())).unwrap();
        assert_eq!(out.len(), 1);
        let f = &out[0];
        assert_eq!(
            (f.code, f.index, f.turn, f.player),
            ("wall-draw-mismatch", 6, 5, Some(2))
        );
        assert!(
            f.message.starts_with("live-wall draw 3 is "),
            "{}",
            f.message
        );
    }

    #[test]
    fn an_excerpt_is_placed_among_the_seeds_deals_and_noted() {
        let out = verify(&game(2, 3, 0), &input(seed())).unwrap();
        let codes: Vec<_> = out.iter().map(|f| (f.code, f.index, f.note)).collect();
        assert_eq!(codes, vec![("wall-excerpt", 1, true)]);
        assert!(out[0].message.contains("deal 3 of its seed"));
    }

    #[test]
    fn another_seed_gives_one_dealt_mismatch_note_and_nothing_else() {
        let other = Seed {
            form: Form::Base64,
            words: vec![9, 9, 9],
        };
        let out = verify(&game(0, 3, 0), &input(other)).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!((out[0].code, out[0].note), ("wall-dealt-mismatch", false));
    }

    #[test]
    fn no_seed_says_why_the_wall_is_unverifiable() {
        let mut inp = input(seed());
        inp.seed = Err("the record has no shuffle seed".into());
        let out = verify(&game(0, 3, 0), &inp).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(
            out[0].message,
            "the wall cannot be verified: the record has no shuffle seed"
        );
    }

    #[test]
    fn a_malformed_code_is_an_error() {
        assert!(verify(&[2, 0], &input(seed())).is_err());
    }
}

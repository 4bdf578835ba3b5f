//! The kan checks (twins of `mjlog.families.riichi.rules.kan`, `docs/rules.md` section 1,
//! K1-K7).

use crate::engine_code::{kind_of, CallKind, Ev, UNKNOWN};

use super::{
    counts_of, is_thirteen_orphans, join_mpsz, kind_str, kinds_of_mask, kinds_text, seat_counts,
    waits, Check, Ctx, HIDDEN, KINDS, MOVE, STILL,
};

fn seat_of(p: i64) -> Option<usize> {
    usize::try_from(p).ok()
}

/// A kan event's player and `TYPE`, or `None` for another event.
fn kan_of(ev: &Ev) -> Option<(i64, &'static str)> {
    match ev {
        Ev::Call {
            kind: CallKind::OpenKan,
            player,
            ..
        } => Some((*player, "open_kan")),
        Ev::AddedKan { player, .. } => Some((*player, "added_kan")),
        Ev::ClosedKan { player, .. } => Some((*player, "closed_kan")),
        _ => None,
    }
}

/// K1 `kan-after-call` (`KanAfterCall`).
pub struct KanAfterCall;

impl Check for KanAfterCall {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let (player, what) = match ev {
            Ev::AddedKan { player, .. } => (*player, "added_kan"),
            Ev::ClosedKan { player, .. } => (*player, "closed_kan"),
            _ => return,
        };
        let Some(p) = seat_of(player) else { return };
        let call = c.referee.seats.get(p).and_then(|s| s.just_called.as_ref());
        if let Some(call) = call {
            let message = format!("{what} right after {}, before its discard", call.what);
            c.violation(ev, "kan-after-call", message, Some(p), vec![], MOVE);
        }
    }
}

/// K3 `kan-wall-empty` (`KanWallEmpty`).
pub struct KanWallEmpty;

impl Check for KanWallEmpty {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Some((player, what)) = kan_of(ev) else {
            return;
        };
        if c.engine.table().live_wall <= 0 {
            let message = format!("{what} with no tile left in the live wall");
            c.violation(ev, "kan-wall-empty", message, seat_of(player), vec![], MOVE);
        }
    }
}

/// K2 `fifth-kan` (`FifthKan`; enabled unless `four_kans` is `fifth-ends`).
pub struct FifthKan;

impl Check for FifthKan {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Some((player, _)) = kan_of(ev) else {
            return;
        };
        let kans = &c.referee.kan_players;
        if kans.len() >= 4 {
            let list: Vec<String> = kans.iter().map(usize::to_string).collect();
            let message = format!(
                "a fifth kan in the round (kans so far by players {})",
                list.join(", ")
            );
            c.violation(ev, "fifth-kan", message, seat_of(player), vec![], MOVE);
        }
    }
}

/// K4 `okuri-kan` and `kan-after-riichi` (`KanAfterRiichi`).
pub struct KanAfterRiichi;

impl Check for KanAfterRiichi {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Ev::ClosedKan { player, tiles } = ev else {
            return;
        };
        let Some(p) = seat_of(*player) else { return };
        let Some(&first) = tiles.first() else { return };
        if c.seat(p).is_some_and(|s| s.riichi) {
            judge(c, ev, p, first);
        }
    }
}

fn judge(c: &mut Ctx<'_>, ev: &Ev, p: usize, first: i64) {
    let Some(seat) = c.seat(p) else { return };
    let mode = c.options.kan_after_riichi.clone();
    let kind = kind_of(usize::try_from(first).unwrap_or(UNKNOWN));
    let drawn = c.referee.seats.get(p).map_or(-1, |s| s.last_draw);
    let held = seat
        .concealed
        .tiles()
        .filter(|&t| kind_of(t) == kind)
        .count();
    let unknown = seat.unknown;
    let shape = mode == "shape";
    let drawn_kind = usize::try_from(drawn).map(kind_of).ok();
    if drawn == UNKNOWN as i64 && held < 4 && mode != "forbidden" {
        unknown_draw(c, ev, p, first, held, shape);
    } else if drawn < 0 || drawn_kind != Some(kind) {
        let kept = if drawn >= 0 {
            format!("with the {} just drawn kept in hand", c.t(drawn))
        } else {
            "with no tile drawn just before it".into()
        };
        let message = format!(
            "closed kan of {} after riichi {kept} (okuri-kan)",
            c.t(first)
        );
        let evidence = vec![c.picture(p)];
        c.violation(ev, "okuri-kan", message, Some(p), evidence, HIDDEN);
    } else if mode == "forbidden" {
        let message = "closed kan after riichi, which this ruleset forbids".to_string();
        let evidence = vec![c.picture(p)];
        c.violation(ev, "kan-after-riichi", message, Some(p), evidence, MOVE);
    } else if unknown != 0 {
        let why = format!("{unknown} tiles of the hand are unknown (?), so its waits are");
        c.unjudged("kan-after-riichi", why, Some(p));
    } else {
        let without = usize::try_from(drawn).unwrap_or(UNKNOWN);
        let melds = seat.melds.len();
        if let Some(hand) = seat_counts(seat, without) {
            kan_waits(c, ev, p, first, hand, melds, shape);
        }
    }
}

/// The tile drawn before the kan is unknown (`KanAfterRiichi._unknown_draw`).
fn unknown_draw(c: &mut Ctx<'_>, ev: &Ev, p: usize, first: i64, held: usize, shape: bool) {
    if let Some(seat) = c.seat(p) {
        if held == 3 && seat.unknown == 1 {
            let melds = seat.melds.len();
            if let Some(hand) = seat_counts(seat, usize::MAX) {
                kan_waits(c, ev, p, first, hand, melds, shape);
                return;
            }
        }
    }
    let why = format!(
        "the tile drawn before the kan of {} is unknown (?)",
        c.t(first)
    );
    c.unjudged("okuri-kan", why.clone(), Some(p));
    c.unjudged("kan-after-riichi", why, Some(p));
}

/// The waits before and after the kan (`KanAfterRiichi._waits`).
fn kan_waits(
    c: &mut Ctx<'_>,
    ev: &Ev,
    p: usize,
    first: i64,
    before: [u8; KINDS],
    melds: usize,
    shape: bool,
) {
    let kind = usize::from(kind_of(usize::try_from(first).unwrap_or(UNKNOWN)));
    let mut after = before;
    if let Some(slot) = after.get_mut(kind) {
        *slot = 0;
    }
    let w_before = waits(&before, melds);
    let w_after = waits(&after, melds + 1);
    let broken = if shape {
        readings_without(&before, w_before, kind)
    } else {
        vec![]
    };
    if w_before == w_after && broken.is_empty() {
        return;
    }
    let why = if w_before != w_after {
        "changes the waits"
    } else {
        "breaks readings of the hand where the three tiles are not a triplet"
    };
    let shown = if broken.is_empty() {
        readings_without(&before, w_before, kind)
    } else {
        broken
    };
    let message = format!("closed kan of {} after riichi {why}", c.t(first));
    let evidence = vec![
        c.picture(p),
        ("waits before", kinds_text(w_before)),
        ("waits after", kinds_text(w_after)),
        ("readings destroyed", readings_text(&shown)),
    ];
    c.violation(ev, "kan-after-riichi", message, Some(p), evidence, HIDDEN);
}

/// A set: (first kind, is a run) — concealed, never a kan, as `readings` gives them.
type Set = (usize, bool);
/// A reading: its pair, its sets, the wait it wins on.
type Reading = (usize, Vec<Set>, usize);

/// Every split of one suit into sets and at most one pair (`fast._split`, same order).
fn split(
    c: &mut [u8],
    i: usize,
    start: usize,
    honours: bool,
    pair: i64,
    sets: &mut Vec<Set>,
    out: &mut Vec<(i64, Vec<Set>)>,
) {
    let size = c.len();
    let mut i = i;
    while i < size && c[i] == 0 {
        i += 1;
    }
    if i == size {
        out.push((pair, sets.clone()));
        return;
    }
    if c[i] >= 3 {
        c[i] -= 3;
        sets.push((start + i, false));
        split(c, i, start, honours, pair, sets, out);
        sets.pop();
        c[i] += 3;
    }
    if !honours && i + 2 < size && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        sets.push((start + i, true));
        split(c, i, start, honours, pair, sets, out);
        sets.pop();
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
    if c[i] >= 2 && pair < 0 {
        c[i] -= 2;
        split(c, i, start, honours, (start + i) as i64, sets, out);
        c[i] += 2;
    }
}

/// Every split of the counts into sets and exactly one pair (`fast.readings`, same
/// order).
fn readings(counts: &[u8; KINDS]) -> Vec<(usize, Vec<Set>)> {
    let mut result: Vec<(i64, Vec<Set>)> = vec![(-1, vec![])];
    for (start, end, honours) in [
        (0, 9, false),
        (9, 18, false),
        (18, 27, false),
        (27, 34, true),
    ] {
        let mut part = Vec::new();
        let mut c = counts[start..end].to_vec();
        split(&mut c, 0, start, honours, -1, &mut Vec::new(), &mut part);
        if part.is_empty() {
            return vec![];
        }
        let mut next = Vec::new();
        for (p1, s1) in &result {
            for (p2, s2) in &part {
                if *p1 < 0 || *p2 < 0 {
                    let pair = if *p2 < 0 { *p1 } else { *p2 };
                    let mut sets = s1.clone();
                    sets.extend(s2.iter().copied());
                    next.push((pair, sets));
                }
            }
        }
        result = next;
    }
    result
        .into_iter()
        .filter_map(|(p, s)| usize::try_from(p).ok().map(|p| (p, s)))
        .collect()
}

/// Readings of the tenpai hand, one per winning tile, with no triplet of `kind`
/// (`kan.readings_without`).
fn readings_without(hand: &[u8; KINDS], mask: u64, kind: usize) -> Vec<Reading> {
    let mut out: Vec<Reading> = Vec::new();
    for w in kinds_of_mask(mask) {
        let mut c = *hand;
        if let Some(slot) = c.get_mut(w) {
            *slot = slot.saturating_add(1);
        }
        for (pair, sets) in readings(&c) {
            let r = (pair, sets, w);
            if !r.1.iter().any(|s| s.0 == kind && !s.1) && !out.contains(&r) {
                out.push(r);
            }
        }
    }
    out
}

fn set_text(s: &Set) -> String {
    let kinds = if s.1 {
        vec![s.0, s.0 + 1, s.0 + 2]
    } else {
        vec![s.0; 3]
    };
    join_mpsz(kinds.into_iter().map(kind_str))
}

/// Readings as evidence (`evidence.readings_text`).
fn readings_text(rs: &[Reading]) -> String {
    if rs.is_empty() {
        return "none".into();
    }
    let texts: Vec<String> = rs
        .iter()
        .map(|(pair, sets, w)| {
            let mut parts: Vec<String> = sets.iter().map(set_text).collect();
            parts.push(join_mpsz([kind_str(*pair), kind_str(*pair)]));
            format!("{}: wins on {}", parts.join(" "), kind_str(*w))
        })
        .collect();
    texts.join("; ")
}

/// One kan awaiting its dora indicator (`kan._Due`).
struct Due {
    player: usize,
    closed: bool,
    discards: i64,
}

/// K5 `kan-dora` (`KanDora`): its draw and discard hooks are dormant until a kan.
#[derive(Default)]
pub struct KanDora {
    due: Vec<Due>,
    awake: bool,
}

impl KanDora {
    fn missing(c: &mut Ctx<'_>, ev: &Ev, due: &mut Due) {
        due.discards = -1;
        let at_once = due.closed || c.options.kan_dora == "immediate";
        let when = if at_once {
            "before the kan player's discard"
        } else {
            "after the discard that follows it"
        };
        let message = format!(
            "a kan by player {} turned no dora indicator {when}",
            due.player
        );
        c.violation(ev, "kan-dora", message, Some(due.player), vec![], MOVE);
    }
}

impl Check for KanDora {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let asleep = c.engine.plain() && !self.awake;
        match ev {
            Ev::RoundStart { .. } => {
                self.due.clear();
                self.awake = false;
            }
            Ev::Draw { player, .. } if !asleep => {
                let mut due = std::mem::take(&mut self.due);
                for d in due.iter_mut() {
                    if d.discards > 0 && *player != d.player as i64 {
                        Self::missing(c, ev, d);
                    }
                }
                self.due = due;
            }
            Ev::Discard { .. } if !asleep && !self.due.is_empty() => {
                let immediate = c.options.kan_dora == "immediate";
                let mut due = std::mem::take(&mut self.due);
                for d in due.iter_mut() {
                    if d.discards < 0 {
                        continue;
                    }
                    if d.closed || immediate {
                        Self::missing(c, ev, d);
                    } else {
                        d.discards += 1;
                    }
                }
                self.due = due;
            }
            Ev::Dora { tile } => {
                if self.due.is_empty() {
                    let message = format!(
                        "dora indicator {} turned with no kan to turn it for",
                        c.t(*tile)
                    );
                    c.violation(ev, "kan-dora", message, None, vec![], STILL);
                } else {
                    self.due.remove(0);
                    if self.due.is_empty() {
                        self.awake = false;
                    }
                }
            }
            _ => {}
        }
    }

    fn after(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Some((player, what)) = kan_of(ev) else {
            return;
        };
        if c.options.kan_dora != "none" {
            if let Some(p) = seat_of(player) {
                self.due.push(Due {
                    player: p,
                    closed: what == "closed_kan",
                    discards: 0,
                });
            }
            self.awake = true;
        }
    }
}

/// K7 `rinshan-draw` (`RinshanDraw`): its draw hook is dormant until a kan or kita.
#[derive(Default)]
pub struct RinshanDraw {
    awake: bool,
}

impl Check for RinshanDraw {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Ev::Draw {
            player, rinshan, ..
        } = ev
        else {
            return;
        };
        if c.engine.plain() && !self.awake {
            return;
        }
        self.awake = false;
        if *rinshan != (c.referee.rinshan_before == *player) {
            let what = if *rinshan {
                "a replacement draw without a kan or kita"
            } else {
                "the draw after a kan is not from the dead wall"
            };
            c.violation(
                ev,
                "rinshan-draw",
                what.into(),
                seat_of(*player),
                vec![],
                MOVE,
            );
        }
    }

    fn after(&mut self, _c: &mut Ctx<'_>, ev: &Ev) {
        if kan_of(ev).is_some() || matches!(ev, Ev::Kita { .. }) {
            self.awake = true;
        }
    }
}

/// K6 `chankan-closed` (`ChankanClosed`).
pub struct ChankanClosed;

impl Check for ChankanClosed {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Ev::Win {
            winner, from, hand, ..
        } = ev
        else {
            return;
        };
        if from == winner || c.engine.previous() != "closed_kan" {
            return;
        }
        let allowed = c.options.chankan_closed_kokushi;
        if allowed && hand.contains(&(UNKNOWN as i64)) {
            let why = "the winner's hand has unknown tiles (?), so whether it is thirteen \
                       orphans is"
                .to_string();
            c.unjudged("chankan-closed", why, seat_of(*winner));
            return;
        }
        let counts = counts_of(hand.iter().map(|&t| usize::try_from(t).unwrap_or(UNKNOWN)));
        let orphans = counts.is_some_and(|h| is_thirteen_orphans(&h));
        if !(allowed && orphans) {
            let message = "ron on the tile of a closed kan".to_string();
            c.violation(
                ev,
                "chankan-closed",
                message,
                seat_of(*winner),
                vec![],
                STILL,
            );
        }
    }
}

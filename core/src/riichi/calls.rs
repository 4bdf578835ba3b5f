//! The call and riichi checks (twins of `mjlog.families.riichi.rules.calls`,
//! `docs/rules.md` section 7).

use crate::engine_code::{kind_of, tiles_str, CallKind, Ev, UNKNOWN};

use super::{hand_waits, seat_counts, Check, Ctx, How, MOVE};

fn seat_of(p: i64) -> Option<usize> {
    usize::try_from(p).ok()
}

fn kind(t: i64) -> u8 {
    kind_of(usize::try_from(t).unwrap_or(UNKNOWN))
}

/// `chi-not-from-left` (`ChiFromLeft`).
pub struct ChiFromLeft;

impl Check for ChiFromLeft {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Ev::Call {
            kind: CallKind::Chi,
            player,
            from,
            ..
        } = ev
        else {
            return;
        };
        let n = c.engine.table().n as i64;
        let message = if n == 3 {
            "chi in a three-player game".to_string()
        } else if n > 0 && *from != (player - 1).rem_euclid(n) {
            format!("chi from player {from}, who is not on the left of player {player}")
        } else {
            return;
        };
        c.violation(
            ev,
            "chi-not-from-left",
            message,
            seat_of(*player),
            vec![],
            MOVE,
        );
    }
}

/// `kuikae` (`Kuikae`; enabled unless `kuikae` is `allowed`): its discard hook is
/// dormant until a chi or pon.
#[derive(Default)]
pub struct Kuikae {
    awake: bool,
}

impl Check for Kuikae {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Ev::Discard { player, tile, .. } = ev else {
            return;
        };
        if c.engine.plain() && !self.awake {
            return;
        }
        let seats = &c.referee.seats;
        let others_done = seats
            .iter()
            .enumerate()
            .all(|(q, s)| q as i64 == *player || s.just_called.is_none());
        if others_done {
            self.awake = false;
        }
        let Some(p) = seat_of(*player) else { return };
        let Some(call) = seats.get(p).and_then(|s| s.just_called.clone()) else {
            return;
        };
        let k = kind(*tile);
        let called = kind(call.called);
        let mut other: i64 = -1;
        if call.what == "chi" && c.options.kuikae == "both" {
            let low = call.tiles.iter().map(|&t| kind(t)).min().unwrap_or(255);
            if called == low && low % 9 <= 5 {
                other = i64::from(low) + 3;
            } else if i64::from(called) == i64::from(low) + 2 && low % 9 >= 1 {
                other = i64::from(low) - 1;
            }
        }
        if k == called || i64::from(k) == other {
            let what = if k == called {
                "the tile it called"
            } else {
                "the other end of the run"
            };
            let message = format!(
                "discards {}, {what}, right after {} of {}",
                c.t(*tile),
                call.what,
                c.t(call.called)
            );
            let ids = call
                .tiles
                .iter()
                .map(|&t| usize::try_from(t).unwrap_or(UNKNOWN));
            let meld = format!("{} {}", call.what, tiles_str(ids, c.options.red_fives));
            let evidence = vec![("call", meld), c.picture(p)];
            c.violation(ev, "kuikae", message, Some(p), evidence, MOVE);
        }
    }

    fn after(&mut self, _c: &mut Ctx<'_>, ev: &Ev) {
        if let Ev::Call {
            kind: CallKind::Chi | CallKind::Pon,
            ..
        } = ev
        {
            self.awake = true;
        }
    }
}

/// `riichi-call` (`RiichiCall`).
pub struct RiichiCall;

impl Check for RiichiCall {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let (player, what) = match ev {
            Ev::Call { player, .. } => (*player, ev.type_name()),
            Ev::AddedKan { player, .. } => (*player, "added kan"),
            _ => return,
        };
        let Some(p) = seat_of(player) else { return };
        if c.seat(p).is_some_and(|s| s.riichi) {
            let message = format!("{what} after riichi");
            c.violation(ev, "riichi-call", message, Some(p), vec![], MOVE);
        }
    }
}

/// `riichi-hand-changed` (`RiichiHandChanged`): its discard hook is dormant until the
/// round's first riichi.
#[derive(Default)]
pub struct RiichiHandChanged {
    awake: bool,
}

impl Check for RiichiHandChanged {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let (player, tile, riichi) = match ev {
            Ev::RoundStart { .. } => {
                self.awake = false;
                return;
            }
            Ev::Discard {
                player,
                tile,
                riichi,
            } => (*player, *tile, *riichi),
            _ => return,
        };
        if c.engine.plain() && !self.awake {
            return;
        }
        if riichi {
            self.awake = true;
        }
        let Some(p) = seat_of(player) else { return };
        let (Some(seat), Some(ps)) = (c.referee.seats.get(p), c.seat(p)) else {
            return;
        };
        let held = usize::try_from(tile).is_ok_and(|t| ps.concealed.has(t));
        if !ps.riichi || seat.just_called.is_some() || tile == seat.last_draw || !held {
            return;
        }
        let last = seat.last_draw;
        if last == UNKNOWN as i64 {
            let why = format!(
                "the tile drawn before the discard of {} is unknown (?)",
                c.t(tile)
            );
            c.unjudged("riichi-hand-changed", why, Some(p));
        } else {
            let message = format!(
                "discards {} from hand after riichi, keeping the {} drawn",
                c.t(tile),
                c.t(last)
            );
            let evidence = vec![c.picture(p)];
            c.violation(ev, "riichi-hand-changed", message, Some(p), evidence, MOVE);
        }
    }
}

/// How a riichi on a hand that is not ready is said (`calls.NOT_READY`).
const NOT_READY: &str = "the hand is not tenpai";

/// `riichi-illegal` (`RiichiIllegal`).
pub struct RiichiIllegal;

impl Check for RiichiIllegal {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Ev::Discard {
            player,
            tile,
            riichi: true,
        } = ev
        else {
            return;
        };
        let Some(p) = seat_of(*player) else { return };
        let problems = problems(c, p, *tile);
        if !problems.is_empty() {
            let hidden = problems.len() == 1 && problems[0].starts_with(NOT_READY);
            let message = format!("riichi declared although {}", problems.join("; "));
            let evidence = vec![c.picture(p)];
            c.violation(
                ev,
                "riichi-illegal",
                message,
                Some(p),
                evidence,
                How {
                    moved: true,
                    hidden,
                },
            );
        }
    }
}

/// What makes a riichi illegal (`RiichiIllegal._problems`).
fn problems(c: &mut Ctx<'_>, p: usize, tile: i64) -> Vec<String> {
    let mut out = Vec::new();
    let t = c.engine.table();
    let Some(ps) = t.seats.get(p) else {
        return out;
    };
    if ps.riichi {
        out.push("the player is already in riichi".to_string());
    }
    if ps.melds.iter().any(|m| m.what != "closed_kan") {
        out.push("the hand is open".to_string());
    }
    let min = c.options.riichi_min_score;
    let score = t.scores.get(p).copied().unwrap_or(0);
    if min != 0 && score < min {
        out.push(format!(
            "{score} points, fewer than the {min} the stick needs"
        ));
    }
    let need = if c.options.riichi_min_wall != 0 {
        c.options.riichi_min_wall
    } else {
        t.n as i64
    };
    if t.live_wall < need {
        out.push(format!(
            "{} tiles left in the live wall, fewer than {need}",
            t.live_wall
        ));
    }
    let unknown = ps.unknown;
    let id = usize::try_from(tile).unwrap_or(UNKNOWN);
    if unknown != 0 {
        let why =
            format!("{unknown} tiles of the hand are unknown (?), so whether it is tenpai is");
        c.unjudged("riichi-illegal", why, Some(p));
    } else if ps.concealed.has(id) && seat_counts(ps, id).is_some() && hand_waits(ps, id) == 0 {
        out.push(format!("{NOT_READY} after discarding {}", c.t(tile)));
    }
    out
}

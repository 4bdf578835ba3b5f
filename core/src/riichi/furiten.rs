//! Furiten (twin of `mjlog.families.riichi.rules.furiten.Furiten`): no ron on a wait the
//! player has discarded, nor after passing a winning tile until the player's next discard,
//! nor after passing one in riichi; under `furiten_tsumo` no tsumo either. The memory is
//! the referee's; a winner's hand the record does not fully name is not judged (an
//! `unjudged` note).

use crate::engine_code::Ev;

use super::{kinds_text, Check, Ctx, STILL};

/// The furiten check (module docs). It keeps no memory of its own.
#[derive(Default)]
pub struct Furiten;

/// A furiten found: the rule's code, the message and the evidence naming what was passed.
type Found = (&'static str, String, (&'static str, String));

impl Furiten {
    /// The furiten of player `p`'s win (`how`: `ron` or `tsumo`), or `None` (`_why`).
    fn why(c: &Ctx<'_>, p: usize, how: &str) -> Option<Found> {
        let referee = c.referee;
        let seat = referee.seats.get(p)?;
        let own = referee.waits(p) & seat.river_kinds;
        if own != 0 {
            let text = kinds_text(own);
            return Some((
                "furiten-ron",
                format!("{how} on a hand waiting on {text}, which the player has discarded"),
                ("discarded", text),
            ));
        }
        if !seat.riichi_furiten.is_empty() {
            let passed = seat.riichi_furiten.clone();
            return Some((
                "furiten-riichi",
                format!("win after passing a winning tile in riichi: {passed}"),
                ("passed", passed),
            ));
        }
        let passed = referee.passed(p);
        if passed.is_empty() {
            return None;
        }
        Some((
            "furiten-passed",
            format!("win after passing a winning tile since the player's last discard: {passed}"),
            ("passed", passed),
        ))
    }
}

impl Check for Furiten {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        let Ev::Win { winner, from, .. } = ev else {
            return;
        };
        let tsumo = from == winner;
        if tsumo && !c.options.furiten_tsumo {
            return;
        }
        let Some(p) = usize::try_from(*winner).ok() else {
            return;
        };
        let Some(unknown) = c.seat(p).map(|s| s.unknown) else {
            return;
        };
        if unknown != 0 {
            let why =
                format!("{unknown} tiles of the winner's hand are unknown (?), so its waits are");
            c.unjudged("furiten-ron", why, Some(p));
            return;
        }
        let Some((code, message, evidence)) = Self::why(c, p, if tsumo { "tsumo" } else { "ron" })
        else {
            return;
        };
        let code = if tsumo { "furiten-tsumo" } else { code };
        let evidence = vec![
            c.picture(p),
            ("waits", kinds_text(c.referee.waits(p))),
            evidence,
        ];
        c.violation(ev, code, message, Some(p), evidence, STILL);
    }
}

//! The win itself (twin of `mjlog.families.riichi.rules.win.NoYakuWin`): a win needs a
//! yaku under the ruleset. Python finds a win without one only where the `mahjong`
//! library values the hand (`error == "no_yaku"`), that is where fast.py declines it;
//! the native valuation (`crate::scoring::value`) declines exactly there. So this check
//! never reports a violation itself: on a fully named winning hand the native valuation
//! declines, it makes the native audit *decline the game* (`Ctx::decline`), and the
//! Python route judges it. It never guesses.

use crate::engine::Observer;
use crate::engine_code::Ev;
use crate::scoring::situation::Situations;
use crate::scoring::{value, Kazoe, Rules, NUM_TILES};

use super::{Check, Ctx, Options};

/// The no-yaku-win check: the situations of the round's wins (`WinValues`), kept by the
/// native situation observer it drives, and the round's dora indicators as written.
#[derive(Default)]
pub struct NoYakuWin {
    situations: Situations,
    /// The round's dora indicators as the record writes them (unclamped).
    dora: Vec<i64>,
}

/// The valuation rules of the options (`riichi._options`).
pub fn rules_of(o: &Options) -> Rules {
    Rules {
        three_player: o.players == 3,
        red_fives: o.red_fives,
        open_tanyao: o.open_tanyao,
        kiriage: o.kiriage,
        kazoe: match o.kazoe.as_str() {
            "sanbaiman" => Kazoe::Sanbaiman,
            "none" => Kazoe::None,
            _ => Kazoe::Yakuman,
        },
    }
}

/// Whether a tile id is a riichi tile (below `NUM_TILES`, not negative).
fn known(t: i64) -> bool {
    (0..i64::from(NUM_TILES)).contains(&t)
}

impl NoYakuWin {
    /// Why the win on the table is valued by the library in Python (fast.py declines
    /// it), or `None` when Python's valuation gives no `no_yaku` there (`before_win`).
    fn declined(&self, c: &Ctx<'_>, ev: &Ev) -> Option<String> {
        let Ev::Win {
            winner,
            from,
            win_tile,
            ura,
            ..
        } = ev
        else {
            return None;
        };
        let w = usize::try_from(*winner).ok()?;
        let seat = c.seat(w)?;
        if seat.unknown != 0 {
            return None; // valued from the hand the record states: the verifier judges it
        }
        let Some(at) = self.situations.found.last() else {
            return Some("no situation of the win".into());
        };
        if at.index != c.engine.index() {
            return Some("no situation of the win".into());
        }
        let mut sit = at.sit.clone();
        if !c.options.ippatsu {
            sit.ippatsu = false;
        }
        let ura: &[i64] = if c.options.ura_dora { ura } else { &[] };
        if !c.options.ura_dora {
            sit.ura_indicators.clear();
        }
        // riichi.value's own refusals: no `no_yaku` there.
        let tsumo = from == winner;
        let melds_known = seat
            .melds
            .iter()
            .all(|m| m.tiles.iter().all(|&t| t < usize::from(NUM_TILES)));
        if sit.hand.len() + 3 * sit.melds.len() < 14
            || sit.hand.iter().any(|&t| t >= NUM_TILES)
            || (!tsumo && !known(*win_tile))
            || !melds_known
        {
            return None;
        }
        let shown_ura: &[i64] = if sit.riichi || sit.double_riichi {
            ura
        } else {
            &[]
        };
        if !self.dora.iter().chain(shown_ura).all(|&t| known(t)) {
            return None;
        }
        if value(&sit, &rules_of(c.options)).is_some() {
            return None;
        }
        Some(format!(
            "the win at event {} is valued by the mahjong library (a hand the native \
             valuation declines)",
            c.engine.index()
        ))
    }
}

impl Check for NoYakuWin {
    fn before(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        self.situations.before(c.engine, ev);
        match ev {
            Ev::RoundStart { dora, .. } => {
                self.dora = if *dora == 144 {
                    Vec::new()
                } else {
                    vec![*dora]
                };
                self.situations.found.clear();
            }
            Ev::Win { .. } => {
                if let Some(why) = self.declined(c, ev) {
                    c.decline(why);
                }
            }
            _ => {}
        }
    }

    fn after(&mut self, c: &mut Ctx<'_>, ev: &Ev) {
        self.situations.after(c.engine, ev);
        if let Ev::Dora { tile } = ev {
            self.dora.push(*tile);
        }
    }
}

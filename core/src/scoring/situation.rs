//! The situation of each win, read from the native table engine (twin of
//! `mjlog.families.riichi.scoring.situation.situation` as
//! `mjlog.families.riichi.scoring.verify.win_situations` collects it).
//!
//! [`Situations`] is an engine observer: it keeps what the table does not (each seat's
//! river length, riichi turn and calls then, kita, sets with their givers; the round's
//! calls, dora indicators and last move) and at each win builds its [`Situation`] from
//! the table just before it, with Tenhou's timing conventions as situation.py states
//! them. It states facts; it values nothing.

use crate::engine::{Engine, Observer};
use crate::engine_code::{CallKind, Ev};

use super::{Meld, MeldKind, Situation};

/// The id of a tile nobody wrote down.
const UNKNOWN: i64 = 144;

/// What the table does not keep of one seat.
#[derive(Clone, Debug, Default)]
struct Track {
    river: i64,
    riichi_index: i64,
    riichi_calls: i64,
    kita: u32,
    melds: Vec<Meld>,
}

impl Track {
    fn new() -> Self {
        Self {
            riichi_index: -1,
            riichi_calls: -1,
            ..Self::default()
        }
    }
}

/// The round's last move, as far as a win's situation asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    None,
    Draw { rinshan: bool },
    Kan,
    Kita,
    Other,
}

/// One win's situation with what payments need beside it.
#[derive(Clone, Debug)]
pub struct WinAt {
    /// The event index of the win.
    pub index: usize,
    pub sit: Situation,
    pub players: usize,
    pub honba: i64,
    pub kyotaku: i64,
    /// The giver of an open kan when the round's last move but draws was that kan.
    pub kan_feeder: Option<i64>,
}

/// The observer that collects every win's situation.
#[derive(Debug, Default)]
pub struct Situations {
    seats: Vec<Track>,
    calls: i64,
    dora: Vec<u16>,
    last: Option<Last>,
    kan_feeder: Option<i64>,
    /// Every win so far, in order.
    pub found: Vec<WinAt>,
}

fn tile(t: i64) -> u16 {
    u16::try_from(t.clamp(0, UNKNOWN)).unwrap_or(144)
}

fn tiles(ts: &[i64]) -> Vec<u16> {
    ts.iter().map(|&t| tile(t)).collect()
}

/// The kind of a tile id as `KIND_OF` gives it (255 for an unknown tile).
fn kind_of(t: u16) -> u16 {
    if t < 136 {
        t >> 2
    } else if t < 144 {
        34 + t - 136
    } else {
        255
    }
}

fn seat(p: i64, n: usize) -> Option<usize> {
    usize::try_from(p).ok().filter(|&p| p < n)
}

impl Situations {
    fn track(&mut self, p: i64) -> Option<&mut Track> {
        let n = self.seats.len();
        seat(p, n).map(|p| &mut self.seats[p])
    }

    fn win(
        &self,
        engine: &Engine,
        winner: i64,
        from: i64,
        win_tile: i64,
        hand: &[i64],
        ura: &[i64],
    ) -> Option<WinAt> {
        let t = engine.table();
        let n = t.n;
        let w = seat(winner, n)?;
        let from = seat(from, n)?;
        let (ps, tr) = (t.seats.get(w)?, self.seats.get(w)?);
        let tsumo = from == w;
        let win_tile = tile(win_tile);
        let hand = if ps.unknown != 0 {
            tiles(hand)
        } else {
            let mut h: Vec<u16> = ps.concealed.tiles().map(|t| tile(t as i64)).collect();
            if !tsumo {
                h.push(win_tile);
            }
            h.sort_unstable();
            h
        };
        let last = self.last.unwrap_or(Last::None);
        let rinshan = tsumo && last == (Last::Draw { rinshan: true });
        let chankan = !tsumo && last == Last::Kan;
        let robbed = chankan || (!tsumo && last == Last::Kita);
        let calls = self.calls - i64::from(robbed);
        let riichi = tr.riichi_index >= 0;
        let double = riichi && tr.riichi_index == 0 && tr.riichi_calls == 0;
        let last_tile = t.live_wall == 0;
        let first_draw = tr.river == 0 && calls == 0;
        let sit = Situation {
            winner: w,
            from_player: from,
            dealer: t.dealer,
            seat_wind: ((w + n - t.dealer % n) % n) as u8,
            round_wind: t.wind.clamp(0, 255) as u8,
            hand,
            win_tile,
            melds: tr.melds.clone(),
            riichi: riichi && !double,
            double_riichi: double,
            ippatsu: riichi && tr.river == tr.riichi_index + 1 && calls == tr.riichi_calls,
            haitei: tsumo && last_tile && !rinshan,
            houtei: !tsumo && last_tile && !chankan,
            rinshan,
            chankan,
            tenhou: tsumo && first_draw && w == t.dealer,
            chiihou: tsumo && first_draw && w != t.dealer,
            dora_indicators: self.dora.clone(),
            ura_indicators: tiles(ura),
            kita: tr.kita,
        };
        Some(WinAt {
            index: engine.index(),
            sit,
            players: n,
            honba: t.honba,
            kyotaku: t.kyotaku,
            kan_feeder: self.kan_feeder,
        })
    }

    /// A move other than a draw: the last move, and the open kan's giver if it is one.
    fn moved(&mut self, last: Last, kan_feeder: Option<i64>) {
        self.last = Some(last);
        self.kan_feeder = kan_feeder;
    }

    fn meld(&mut self, p: i64, kind: MeldKind, ts: &[i64], from: i64, called: i64) {
        if let Some(tr) = self.track(p) {
            let from_player = usize::try_from(from).unwrap_or(usize::MAX);
            tr.melds.push(Meld {
                kind,
                tiles: tiles(ts),
                from_player,
                called: tile(called),
            });
        }
    }

    fn added_kan(&mut self, p: i64, added: i64, ts: &[i64], from: i64) {
        let Some(tr) = self.track(p) else { return };
        let k = kind_of(tile(added));
        let meld = Meld {
            kind: MeldKind::AddedKan,
            tiles: tiles(ts),
            from_player: usize::try_from(from).unwrap_or(usize::MAX),
            called: tile(added),
        };
        let pon = tr
            .melds
            .iter()
            .position(|m| m.kind == MeldKind::Pon && kind_of(m.called) == k);
        match pon {
            Some(i) => tr.melds[i] = meld,
            None => tr.melds.push(meld),
        }
    }
}

impl Observer for Situations {
    fn before(&mut self, engine: &mut Engine, ev: &Ev) {
        match ev {
            Ev::RoundStart { dora, .. } => {
                self.seats = vec![Track::new(); engine.table().n];
                self.calls = 0;
                self.dora = if *dora == UNKNOWN {
                    Vec::new()
                } else {
                    vec![tile(*dora)]
                };
                self.last = None;
                self.kan_feeder = None;
            }
            Ev::Win {
                winner,
                from,
                win_tile,
                hand,
                ura,
                ..
            } => {
                if let Some(found) = self.win(engine, *winner, *from, *win_tile, hand, ura) {
                    self.found.push(found);
                }
            }
            Ev::Draw { rinshan, .. } => self.last = Some(Last::Draw { rinshan: *rinshan }),
            Ev::AddedKan { .. } | Ev::ClosedKan { .. } => self.moved(Last::Kan, None),
            Ev::Kita { .. } => self.moved(Last::Kita, None),
            Ev::Call {
                kind: CallKind::OpenKan,
                from,
                ..
            } => self.moved(Last::Other, Some(*from)),
            Ev::Discard { .. } | Ev::Call { .. } | Ev::Flower { .. } => {
                self.moved(Last::Other, None);
            }
            _ => {}
        }
    }

    fn after(&mut self, _engine: &mut Engine, ev: &Ev) {
        match ev {
            Ev::Discard { player, riichi, .. } => {
                let calls = self.calls;
                if let Some(tr) = self.track(*player) {
                    if *riichi {
                        tr.riichi_index = tr.river;
                        tr.riichi_calls = calls;
                    }
                    tr.river += 1;
                }
            }
            Ev::Call {
                kind,
                player,
                from,
                tiles,
                called,
            } => {
                self.calls += 1;
                let kind = match kind {
                    CallKind::Chi => MeldKind::Chi,
                    CallKind::Pon => MeldKind::Pon,
                    CallKind::OpenKan => MeldKind::OpenKan,
                };
                self.meld(*player, kind, tiles, *from, *called);
            }
            Ev::ClosedKan { player, tiles } => {
                self.calls += 1;
                self.meld(*player, MeldKind::ClosedKan, tiles, *player, UNKNOWN);
            }
            Ev::AddedKan {
                player,
                from,
                added,
                tiles,
                ..
            } => {
                self.calls += 1;
                self.added_kan(*player, *added, tiles, *from);
            }
            Ev::Kita { player, .. } => {
                self.calls += 1;
                if let Some(tr) = self.track(*player) {
                    tr.kita += 1;
                }
            }
            Ev::Dora { tile: t } => self.dora.push(tile(*t)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::replay_observed;
    use crate::engine_code::kind as k;

    /// A four-player round: seat p holds tiles p * 13 .. p * 13 + 13; dora indicator 100.
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
    fn a_ron_on_a_riichi_discard_has_its_situation() {
        let mut code = start4();
        code.extend([k::DRAW, 0, 60, 0, k::DISCARD, 0, 60, 1]);
        code.extend([k::WIN, 1, 0, 60, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, -1]);
        let mut obs = Situations::default();
        replay_observed(&code, &mut [&mut obs]).expect("a code");
        assert_eq!(obs.found.len(), 1);
        let w = &obs.found[0];
        let s = &w.sit;
        assert_eq!(
            (w.index, w.players, s.winner, s.from_player, s.seat_wind),
            (4, 4, 1, 0, 1)
        );
        let mut hand: Vec<u16> = (13..26).collect();
        hand.push(60);
        hand.sort_unstable();
        assert_eq!(s.hand, hand);
        assert_eq!(s.dora_indicators, vec![100]);
        assert!(!s.tsumo() && !s.riichi && !s.ippatsu && !s.houtei && !s.chankan);
    }
}

//! Score verification (twin of `mjlog.families.riichi.scoring.verify`): the liable seat
//! of a win ([`liable`], [`liable_seat`]) and the [`Verifier`], an engine observer that
//! compares each win's claims (value, pao, payments), each draw's tenpai, nagashi and
//! payments, the next round and the game's end with what the table implies, as the
//! Python `Verifier` does with `yaku_judged=False`. It declines a game wherever Python
//! would ask the `mahjong` library (fast.py declines the hand, or the record does not
//! confirm fast.py's value): it never reports a `win-yaku`, `win-fu`, `win-han`,
//! `win-points` or `win-limit` mismatch itself, as those come from the library's answer.

use super::situation::WinAt;
use super::{MeldKind, Rules, Situation, Value, NUM_TILES};
use crate::engine::{Engine, Observer};
use crate::engine_code::{Claims, Ev};

/// The liable seat (pao) of a 大三元 or 大四喜 (twin of `verify.liable`): the giver of the
/// last of all three dragon (four wind) sets when that set was called from another
/// player; `None` if nobody.
pub fn liable(sit: &Situation) -> Option<usize> {
    for (lo, hi) in [(31u16, 34u16), (27, 31)] {
        let sets: Vec<_> = sit
            .melds
            .iter()
            .filter(|m| {
                m.tiles
                    .first()
                    .is_some_and(|&t| t < 136 && (lo..hi).contains(&(t >> 2)))
            })
            .collect();
        if sets.len() == usize::from(hi - lo) {
            let last = sets[sets.len() - 1];
            let called = matches!(
                last.kind,
                MeldKind::Pon | MeldKind::OpenKan | MeldKind::AddedKan
            );
            if called && last.from_player != sit.winner {
                return Some(last.from_player);
            }
        }
    }
    None
}

/// The seat that pays the whole win (twin of `verify.liable_seat`): the [`liable`]
/// feeder, or, with `open_kan_pao` (K8), whoever's discard was kanned by the open kan
/// right before a win on its replacement tile.
pub fn liable_seat(win: &WinAt, open_kan_pao: bool) -> Option<i64> {
    match liable(&win.sit) {
        Some(p) => i64::try_from(p).ok(),
        None if open_kan_pao && win.sit.rinshan => win.kan_feeder,
        None => None,
    }
}

/// A value a mismatch names (`ScoreMismatch.recorded` / `computed`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    No,
    Int(i64),
    Bool(bool),
    Text(String),
}

/// One score mismatch (`ScoreMismatch`): code, event index, seat, field, recorded,
/// computed, message, round label, turn.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub code: &'static str,
    pub index: usize,
    pub player: Option<i64>,
    pub field: String,
    pub recorded: Val,
    pub computed: Val,
    pub message: String,
    pub round: String,
    pub turn: i64,
}

/// The options score verification reads.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    pub rules: Rules,
    pub ippatsu: bool,
    pub ura_dora: bool,
    pub open_kan_pao: bool,
    pub nagashi: bool,
    pub noten_per_ready: i64,
    /// Whether the record's source can name the liable seat (not in `PAO_UNNAMED`).
    pub pao_named: bool,
}

impl VerifyOptions {
    /// The options of the native riichi audit's (`mjlog.families.riichi.native.options_of`),
    /// with whether the record's source names the liable seat.
    pub fn of(o: &crate::riichi::Options, pao_named: bool) -> Self {
        Self {
            rules: crate::riichi::win::rules_of(o),
            ippatsu: o.ippatsu,
            ura_dora: o.ura_dora,
            open_kan_pao: o.open_kan_pao,
            nagashi: o.nagashi,
            noten_per_ready: o.noten_per_ready,
            pao_named,
        }
    }
}

/// What the verifier keeps of one seat: its river's length, whether every discard is a
/// terminal or honour, whether a discard of it was called.
#[derive(Clone, Debug, Default)]
struct River {
    len: usize,
    all_terminal: bool,
    called_away: bool,
}

/// The score verifier (twin of `verify.Verifier` with `yaku_judged=False` on tile
/// records): an engine observer. It declines (`declined` set) wherever the Python
/// verifier would ask the `mahjong` library (a hand fast.py declines, a value the
/// record does not confirm) or a score sheet's round, and then stops judging.
pub struct Verifier {
    pub opts: VerifyOptions,
    /// Claim names by id (`mjlog.replay.code.claim_names`).
    pub names: Vec<String>,
    /// For each event index of a win, the winners of the run of wins it starts.
    pub runs: Vec<Vec<i64>>,
    pub out: Vec<Mismatch>,
    pub declined: String,
    /// `ScoreReport`'s counts: wins, wins verified, draws, draws verified.
    pub counts: [usize; 4],
    sits: super::situation::Situations,
    expected: Option<(i64, i64, i64, usize)>,
    dealer_keeps: bool,
    any_win: bool,
    sticks_to: i64,
    last_abortive: bool,
    dora: Vec<i64>,
    rivers: Vec<River>,
}

const TERMINALS_HONOURS: [u16; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// For each event of a decoded code, the winners of the run of wins it starts (empty
/// for any other event).
pub fn win_runs(evs: &[crate::engine_code::Ev<'_>]) -> Vec<Vec<i64>> {
    let mut runs = vec![Vec::new(); evs.len()];
    for i in (0..evs.len()).rev() {
        if let crate::engine_code::Ev::Win { winner, .. } = evs[i] {
            let mut run = vec![winner];
            if i + 1 < evs.len() {
                run.extend(runs[i + 1].iter().copied());
            }
            runs[i] = run;
        }
    }
    runs
}

impl Verifier {
    pub fn new(opts: VerifyOptions, names: Vec<String>, runs: Vec<Vec<i64>>) -> Self {
        Self {
            opts,
            names,
            runs,
            out: Vec::new(),
            declined: String::new(),
            counts: [0; 4],
            sits: super::situation::Situations::default(),
            expected: None,
            dealer_keeps: false,
            any_win: false,
            sticks_to: -1,
            last_abortive: false,
            dora: Vec::new(),
            rivers: Vec::new(),
        }
    }

    fn decline(&mut self, why: String) {
        if self.declined.is_empty() {
            self.declined = why;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn mismatch(
        &mut self,
        engine: &Engine,
        code: &'static str,
        field: String,
        recorded: Val,
        computed: Val,
        player: Option<i64>,
        message: &str,
    ) {
        self.out.push(Mismatch {
            code,
            index: engine.index(),
            player,
            field,
            recorded,
            computed,
            message: message.to_string(),
            round: engine.round(),
            turn: engine.table().turn,
        });
    }

    fn expect_next(&mut self, engine: &Engine, dealer_keeps: bool, honba_up: bool) {
        let t = engine.table();
        self.expected = Some(super::payments::next_round(
            t.wind,
            t.number,
            t.honba,
            t.dealer,
            t.n,
            dealer_keeps,
            honba_up,
        ));
    }

    fn compare_deltas(&mut self, engine: &Engine, code: &'static str, rec: &[i64], comp: &[i64]) {
        for (p, (&r, &c)) in rec.iter().zip(comp).enumerate() {
            if r != c {
                let field = format!("deltas[{p}]");
                self.mismatch(
                    engine,
                    code,
                    field,
                    Val::Int(r),
                    Val::Int(c),
                    Some(p as i64),
                    "",
                );
            }
        }
    }

    fn round_start(&mut self, engine: &Engine, ev: &Ev) {
        let Ev::RoundStart {
            wind,
            number,
            honba,
            dealer,
            dora,
            results_only,
            ..
        } = ev
        else {
            return;
        };
        if *results_only {
            self.decline("a score sheet's round".into());
        }
        if let Some(exp) = self.expected.take() {
            let got = [*wind, *number, *honba, *dealer];
            let want = [exp.0, exp.1, exp.2, exp.3 as i64];
            let names = ["round wind", "round number", "honba", "dealer"];
            for k in 0..4 {
                if got[k] != want[k] {
                    let (r, c) = (Val::Int(got[k]), Val::Int(want[k]));
                    self.mismatch(engine, "next-round", names[k].into(), r, c, None, "");
                }
            }
        }
        self.any_win = false;
        self.sticks_to = -1;
        self.dora = if *dora == 144 {
            Vec::new()
        } else {
            vec![*dora]
        };
        self.rivers = vec![
            River {
                all_terminal: true,
                ..River::default()
            };
            engine.table().n
        ];
    }

    fn sticks_receiver(&self, engine: &Engine, from: i64) -> i64 {
        let n = engine.table().n as i64;
        let winners = &self.runs[engine.index().min(self.runs.len().saturating_sub(1))];
        let key = |w: i64| match (w - from).rem_euclid(n.max(1)) {
            0 => n,
            k => k,
        };
        let mut best = -1;
        for &w in winners {
            if best < 0 || key(w) < key(best) {
                best = w;
            }
        }
        best
    }

    fn name(&self, id: i64) -> Option<&str> {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.names.get(i))
            .map(String::as_str)
    }
}

/// A hand's points from its payments (`riichi._points`).
fn points_of(sit: &Situation, players: usize, main: i64, additional: i64) -> i64 {
    if !sit.tsumo() {
        main
    } else if sit.is_dealer() {
        main * (players as i64 - 1)
    } else {
        main + additional * (players as i64 - 2)
    }
}

impl Verifier {
    /// Whether the claims agree with a value (`verify._agrees`); `None` where a claim
    /// names something the code cannot (an unknown name).
    fn agrees(&self, c: &Claims<'_>, v: &Value, points: i64, kita: u32) -> Option<bool> {
        let limit = if c.limit < 0 {
            None
        } else {
            self.name(c.limit)
        }?;
        if (c.han, limit) != (i64::from(v.han), v.limit)
            || (c.points != 0 && c.points != points)
            || (c.fu != 0 && c.fu != i64::from(v.fu))
        {
            return Some(false);
        }
        if c.yaku.is_empty() && c.han > 0 {
            return Some(true);
        }
        let mut recorded = std::collections::BTreeMap::new();
        for pair in c.yaku.chunks(2) {
            if pair.len() == 2 && pair[1] != 0 {
                recorded.insert(self.name(pair[0])?.to_string(), pair[1]);
            }
        }
        let mut computed = std::collections::BTreeMap::new();
        for &(name, han) in &v.yaku {
            if han != 0 {
                computed.insert(name.to_string(), i64::from(han));
            }
        }
        let k = i64::from(kita);
        if kita > 0
            && recorded.contains_key("kita-dora")
            && computed.get("dora").copied().unwrap_or(0) >= k
        {
            let d = computed["dora"] - k;
            if d == 0 {
                computed.remove("dora");
            } else {
                computed.insert("dora".into(), d);
            }
            computed.insert("kita-dora".into(), k);
        }
        Some(recorded == computed)
    }

    fn win(&mut self, engine: &mut Engine, ev: &Ev) {
        let Ev::Win {
            winner,
            from,
            dora,
            deltas,
            claims,
            ..
        } = ev
        else {
            return;
        };
        self.last_abortive = false;
        self.counts[0] += 1;
        let before = self.out.len();
        if !self.any_win {
            self.any_win = true;
            self.dealer_keeps = false;
            self.sticks_to = self.sticks_receiver(engine, *from);
        }
        let Some(found) = self.sits.found.last().filter(|f| f.index == engine.index()) else {
            return self.decline("a win without a situation".into());
        };
        let mut at = found.clone();
        if !self.opts.ippatsu {
            at.sit.ippatsu = false;
        }
        if !self.opts.ura_dora {
            at.sit.ura_indicators.clear();
        }
        let sit = &at.sit;
        let first = *winner == self.sticks_to;
        let w = Some(*winner);
        let bad = |t: u16| t >= NUM_TILES;
        if sit.hand.is_empty() {
            return self.decline("a win with no hand".into());
        }
        let short = sit.hand.len() + 3 * sit.melds.len() < 14
            || sit.hand.iter().any(|&t| bad(t))
            || sit
                .melds
                .iter()
                .any(|m| m.tiles.is_empty() || m.tiles.iter().any(|&t| bad(t)));
        let ura: &[u16] = if sit.riichi || sit.double_riichi {
            &sit.ura_indicators
        } else {
            &[]
        };
        let no_indicator = sit.dora_indicators.iter().chain(ura).any(|&t| bad(t));
        let t = engine.table();
        let (dealer, kyotaku, n) = (t.dealer, t.kyotaku, t.n);
        let unwritten = short && sit.hand.contains(&144) || !short && no_indicator;
        if unwritten {
            let what = if short {
                "tiles of the hand"
            } else {
                "a dora indicator"
            };
            let msg = format!(
                "the value of player {winner}'s win not verified: {what} nobody wrote down"
            );
            engine.note("unjudged", msg, usize::try_from(*winner).ok());
            self.counts[0] -= 1;
        } else if short {
            let rec = Val::Int(claims.points);
            let msg = "the scoring library says hand_not_known";
            self.mismatch(
                engine,
                "win-unscorable",
                "hand".into(),
                rec,
                Val::No,
                w,
                msg,
            );
        } else {
            let Some(v) = super::value(sit, &self.opts.rules) else {
                return self.decline("a hand fast.py declines".into());
            };
            let points = points_of(sit, n, v.main, v.additional);
            let pao = liable_seat(&at, self.opts.open_kan_pao);
            let whole =
                super::payments::ron_value(v.main, v.additional, sit.tsumo(), sit.is_dealer());
            let computed = super::payments::win_deltas(
                n,
                sit.winner,
                sit.from_player,
                sit.dealer,
                v.main,
                v.additional,
                if first { at.honba } else { 0 },
                if first { kyotaku } else { 0 },
                pao.and_then(|p| usize::try_from(p).ok()),
                whole,
            );
            let claimed = !claims.yaku.is_empty() || claims.han != 0 || claims.points != 0;
            let confirmed = if claimed {
                match self.agrees(claims, &v, points, sit.kita) {
                    Some(ok) => ok,
                    None => return self.decline("a claim name the code lacks".into()),
                }
            } else {
                !deltas.is_empty() && deltas[..] == computed[..]
            };
            if !confirmed {
                return self.decline("a value the record does not confirm".into());
            }
            if !dora.is_empty() && dora[..] != self.dora[..] {
                let seen = |ts: &[i64]| ts.iter().all(|t| (0..=144).contains(t));
                if !seen(dora) || !seen(&self.dora) {
                    return self.decline("a dora indicator of no tile".into());
                }
                let text = |ts: &[i64]| {
                    crate::riichi::join_mpsz(ts.iter().map(|&t| crate::riichi::tile_text(t, true)))
                };
                let (r, c) = (Val::Text(text(dora)), Val::Text(text(&self.dora)));
                let field = "dora indicators".to_string();
                self.mismatch(engine, "win-indicators", field, r, c, w, "");
            }
            let rec_pao = (claims.pao >= 0).then_some(claims.pao);
            if rec_pao != pao && (self.opts.pao_named || rec_pao.is_some()) {
                let val = |p: Option<i64>| p.map_or(Val::No, Val::Int);
                self.mismatch(
                    engine,
                    "win-pao",
                    "pao".into(),
                    val(rec_pao),
                    val(pao),
                    w,
                    "",
                );
            }
            if !deltas.is_empty() {
                self.compare_deltas(engine, "win-deltas", deltas, &computed);
            }
        }
        if self.out.len() == before && !unwritten {
            self.counts[1] += 1;
        }
        self.dealer_keeps = self.dealer_keeps || *winner == dealer as i64;
        let keeps = self.dealer_keeps;
        self.expect_next(engine, keeps, keeps);
    }

    fn tenpai(engine: &Engine, p: usize) -> Option<bool> {
        let seat = &engine.table().seats[p];
        let counts = crate::riichi::counts_of(seat.concealed.tiles())?;
        Some(crate::riichi::waits(&counts, seat.melds.len()) != 0)
    }

    fn draw(&mut self, engine: &mut Engine, ev: &Ev) {
        let Ev::DrawResult {
            abortive,
            hands,
            shown,
            deltas,
            nagashi,
            ..
        } = ev
        else {
            return;
        };
        self.last_abortive = *abortive;
        let t = engine.table();
        let (n, dealer) = (t.n, t.dealer);
        if *abortive {
            if deltas.iter().any(|&d| d != 0) {
                self.compare_deltas(engine, "draw-deltas", deltas, &vec![0; n]);
            }
            return self.expect_next(engine, true, true);
        }
        let mut tenpai = Vec::with_capacity(n);
        for p in 0..n {
            match Self::tenpai(engine, p) {
                Some(r) => tenpai.push(r),
                None => return self.decline("a hand of odd tiles at a draw".into()),
            }
        }
        let shown_count = usize::try_from(*hands).unwrap_or(0).min(n);
        for (p, ready) in tenpai.iter_mut().enumerate().take(shown_count) {
            let is_shown = p < 63 && (shown >> p) & 1 == 1;
            if engine.table().seats[p].unknown != 0 {
                *ready = is_shown;
            } else if is_shown != *ready {
                let (r, c) = (Val::Bool(is_shown), Val::Bool(*ready));
                self.mismatch(
                    engine,
                    "draw-tenpai",
                    format!("tenpai[{p}]"),
                    r,
                    c,
                    Some(p as i64),
                    "",
                );
            }
        }
        let winners: Vec<usize> = (0..n)
            .filter(|&p| {
                let r = &self.rivers[p];
                self.opts.nagashi && r.len > 0 && !r.called_away && r.all_terminal
            })
            .collect();
        if *nagashi == winners.is_empty() {
            let (r, c) = (Val::Bool(*nagashi), Val::Bool(!winners.is_empty()));
            self.mismatch(engine, "draw-nagashi", "nagashi".into(), r, c, None, "");
        }
        if !deltas.is_empty() {
            let expected = if winners.is_empty() {
                super::payments::draw_deltas(&tenpai, self.opts.noten_per_ready)
            } else {
                super::payments::nagashi_deltas(&winners, dealer, n)
            };
            self.compare_deltas(engine, "draw-deltas", deltas, &expected);
        }
        self.expect_next(engine, tenpai[dealer], true);
    }
}

impl Observer for Verifier {
    fn before(&mut self, engine: &mut Engine, ev: &Ev) {
        self.sits.before(engine, ev);
        if !self.declined.is_empty() {
            return;
        }
        match ev {
            Ev::RoundStart { .. } => self.round_start(engine, ev),
            Ev::Win { .. } => self.win(engine, ev),
            Ev::DrawResult { .. } => {
                self.counts[2] += 1;
                let before = self.out.len();
                self.draw(engine, ev);
                if self.out.len() == before {
                    self.counts[3] += 1;
                }
            }
            Ev::Chombo { .. } => {
                self.last_abortive = false;
                let t = engine.table();
                self.expected = Some((t.wind, t.number, t.honba, t.dealer));
            }
            Ev::GameEnd { .. } => {
                let low = engine.table().scores.iter().copied().min().unwrap_or(0);
                if self.last_abortive && low >= 0 {
                    let msg = "the game ends after an abortive draw, which replays the round";
                    let (r, c) = (
                        Val::Text("ended".into()),
                        Val::Text("round played again".into()),
                    );
                    self.mismatch(engine, "game-end", "game end".into(), r, c, None, msg);
                }
            }
            Ev::Call {
                from,
                called,
                player,
                ..
            } => {
                let t = engine.table();
                if *called == t.last_discard && *from == t.last_discarder && player != from {
                    if let Some(r) = usize::try_from(*from)
                        .ok()
                        .and_then(|p| self.rivers.get_mut(p))
                    {
                        r.called_away = true;
                    }
                }
            }
            _ => {}
        }
    }

    fn after(&mut self, engine: &mut Engine, ev: &Ev) {
        self.sits.after(engine, ev);
        match ev {
            Ev::Discard { player, tile, .. } => {
                if let Some(r) = usize::try_from(*player)
                    .ok()
                    .and_then(|p| self.rivers.get_mut(p))
                {
                    r.len += 1;
                    let kind = if (0..136).contains(tile) {
                        (*tile >> 2) as u16
                    } else {
                        255
                    };
                    r.all_terminal &= TERMINALS_HONOURS.contains(&kind);
                }
            }
            Ev::Dora { tile } => self.dora.push(*tile),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::replay_observed;
    use crate::engine_code::{decode, kind as k};

    fn opts() -> VerifyOptions {
        VerifyOptions {
            rules: Rules::default(),
            ippatsu: true,
            ura_dora: true,
            open_kan_pao: false,
            nagashi: true,
            noten_per_ready: 0,
            pao_named: true,
        }
    }

    /// A four-player round (seat p holds tiles p * 13 ..), ended by an exhaustive draw
    /// that claims nagashi and shows no hand (the dealer is ready: the dealer keeps),
    /// then a round start.
    fn code(next_dealer: i64) -> Vec<i64> {
        let mut code = vec![k::GAME_START, 4, 136, 14, 13, 1, 0, 0];
        code.extend([k::ROUND_START, 0, 1, 0, 0, 0, 100, 0, 4]);
        code.extend([25000; 4]);
        code.push(4);
        for p in 0..4 {
            code.push(13);
            code.extend((0..13).map(|i| p * 13 + i));
        }
        code.extend([k::DRAW, 0, 60, 0, k::DISCARD, 0, 60, 0]);
        code.extend([k::EXHAUSTIVE, 0, 0, 0, -1, 1]);
        code.extend([k::ROUND_START, 0, 1, 1, 0, next_dealer, 100, 0, 4]);
        code.extend([25000; 4]);
        code.push(4);
        for p in 0..4 {
            code.push(13);
            code.extend((0..13).map(|i| p * 13 + i));
        }
        code
    }

    #[test]
    fn a_draw_claiming_nagashi_and_a_wrong_next_dealer_are_mismatches() {
        let words = code(2);
        let runs = win_runs(&decode(&words).expect("a code"));
        let mut v = Verifier::new(opts(), Vec::new(), runs);
        let replay = replay_observed(&words, &mut [&mut v]).expect("a code");
        assert!(v.declined.is_empty());
        assert_eq!(replay.scores.len(), 4); // the table's final scores
        let got: Vec<_> = v
            .out
            .iter()
            .map(|m| (m.code, m.index, m.field.as_str(), m.recorded.clone()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("draw-nagashi", 4, "nagashi", Val::Bool(true)),
                ("next-round", 5, "dealer", Val::Int(2)),
            ]
        );
        // one draw, not verified (its nagashi claim is a mismatch); no win
        assert_eq!(v.counts, [0, 0, 1, 0]);
    }
}

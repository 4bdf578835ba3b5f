//! The bindings of the riichi valuation and payments (`mjlog._native.riichi_*`).
//!
//! Every function validates what it is given and raises `ValueError` for what it cannot
//! take (a tile id of no riichi tile, a seat past the table, a count past any game);
//! none panics.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::{payments, verify};
use super::{Kazoe, Meld, MeldKind, Rules, Situation, NUM_TILES};

/// The most concealed tiles and sets a hand may have here (a riichi hand has 14 and 4;
/// a miscounted record's hand a few more).
const MOST_TILES: usize = 32;
const MOST_MELDS: usize = 8;
/// The largest amount of points any argument may carry.
const MOST_POINTS: i64 = 1 << 40;

fn bad(what: &str) -> PyErr {
    PyValueError::new_err(what.to_owned())
}

fn tiles_ok(tiles: &[u16]) -> bool {
    tiles.iter().all(|&t| t < NUM_TILES)
}

/// The situation's flags, bit 0 first: riichi, double riichi, ippatsu, haitei, houtei,
/// rinshan, chankan, tenhou, chiihou.
fn flag(flags: u32, bit: u32) -> bool {
    flags & (1 << bit) != 0
}

fn meld_kind(code: u8) -> MeldKind {
    match code {
        0 => MeldKind::Chi,
        1 => MeldKind::Pon,
        2 => MeldKind::OpenKan,
        3 => MeldKind::AddedKan,
        4 => MeldKind::ClosedKan,
        _ => MeldKind::Other,
    }
}

fn rules_of(rules: (u8, bool, bool, bool, &str)) -> PyResult<Rules> {
    let (players, red_fives, open_tanyao, kiriage, kazoe) = rules;
    let kazoe = match kazoe {
        "yakuman" => Kazoe::Yakuman,
        "sanbaiman" => Kazoe::Sanbaiman,
        "none" => Kazoe::None,
        _ => return Err(bad("kazoe is one of yakuman, sanbaiman, none")),
    };
    if !(3..=4).contains(&players) {
        return Err(bad("a riichi table has 3 or 4 players"));
    }
    Ok(Rules {
        three_player: players == 3,
        red_fives,
        open_tanyao,
        kiriage,
        kazoe,
    })
}

type ValueRow = (u32, u32, Vec<(&'static str, u32)>, &'static str, i64, i64);

/// A win's value (twin of `mjlog.families.riichi.scoring.fast.fast_value`):
/// `(fu, han, [(yaku, han)], limit, main, additional)`, or `None` where fast.py declines.
///
/// `melds` are `(code, tile ids)` with code 0 chi, 1 pon, 2 open kan, 3 added kan,
/// 4 closed kan (any other: declined); `seats` is `(winner, from_player, dealer,
/// seat_wind, round_wind)`; `flags` as [`flag`] reads them; `rules` is `(players,
/// red_fives, open_tanyao, kiriage, kazoe)`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn riichi_value(
    hand: Vec<u16>,
    melds: Vec<(u8, Vec<u16>)>,
    win_tile: u16,
    seats: (usize, usize, usize, u8, u8),
    flags: u32,
    dora: Vec<u16>,
    ura: Vec<u16>,
    kita: u32,
    rules: (u8, bool, bool, bool, &str),
) -> PyResult<Option<ValueRow>> {
    let rules = rules_of(rules)?;
    let sit = situation_of(hand, melds, win_tile, seats, flags, dora, ura, kita)?;
    Ok(super::value(&sit, &rules).map(|v| (v.fu, v.han, v.yaku, v.limit, v.main, v.additional)))
}

type ReadingRow = (i16, Vec<(u8, bool, bool, bool)>, usize, Vec<&'static str>);

/// Every reading of a win that scores an ordinary yaku (twin of
/// `mjlog.families.riichi.scoring.fast.yaku_readings`): `(pair, [(first kind, run,
/// concealed, kan)], concealed sets, [yaku])`; arguments as [`riichi_value`]'s.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn riichi_yaku_readings(
    hand: Vec<u16>,
    melds: Vec<(u8, Vec<u16>)>,
    win_tile: u16,
    seats: (usize, usize, usize, u8, u8),
    flags: u32,
    dora: Vec<u16>,
    ura: Vec<u16>,
    kita: u32,
    rules: (u8, bool, bool, bool, &str),
) -> PyResult<Vec<ReadingRow>> {
    let rules = rules_of(rules)?;
    let sit = situation_of(hand, melds, win_tile, seats, flags, dora, ura, kita)?;
    Ok(super::yaku_readings(&sit, &rules)
        .into_iter()
        .map(|r| (r.pair, r.sets, r.concealed_sets, r.yaku))
        .collect())
}

/// The checked situation of [`riichi_value`]'s arguments.
#[allow(clippy::too_many_arguments)]
fn situation_of(
    hand: Vec<u16>,
    melds: Vec<(u8, Vec<u16>)>,
    win_tile: u16,
    seats: (usize, usize, usize, u8, u8),
    flags: u32,
    dora: Vec<u16>,
    ura: Vec<u16>,
    kita: u32,
) -> PyResult<Situation> {
    let (winner, from_player, dealer, seat_wind, round_wind) = seats;
    if hand.len() > MOST_TILES || melds.len() > MOST_MELDS || kita > 8 {
        return Err(bad("a hand of at most 32 tiles, 8 sets and 8 kita"));
    }
    if seat_wind > 3 || round_wind > 3 {
        return Err(bad("winds are 0 to 3"));
    }
    let tiles_known = tiles_ok(&hand)
        && tiles_ok(&dora)
        && tiles_ok(&ura)
        && win_tile < NUM_TILES
        && melds
            .iter()
            .all(|(_, t)| !t.is_empty() && t.len() <= 4 && tiles_ok(t));
    if !tiles_known {
        return Err(bad("tile ids are 0 to 135 and a set has 1 to 4 tiles"));
    }
    Ok(Situation {
        winner,
        from_player,
        dealer,
        seat_wind,
        round_wind,
        hand,
        win_tile,
        melds: melds
            .into_iter()
            .map(|(code, tiles)| Meld {
                kind: meld_kind(code),
                called: tiles[0],
                tiles,
                from_player: winner,
            })
            .collect(),
        riichi: flag(flags, 0),
        double_riichi: flag(flags, 1),
        ippatsu: flag(flags, 2),
        haitei: flag(flags, 3),
        houtei: flag(flags, 4),
        rinshan: flag(flags, 5),
        chankan: flag(flags, 6),
        tenhou: flag(flags, 7),
        chiihou: flag(flags, 8),
        dora_indicators: dora,
        ura_indicators: ura,
        kita,
    })
}

/// (base points, limit) of `han` and `fu` (twin of `fast.hand_value`).
#[pyfunction]
fn riichi_hand_value(
    han: u32,
    fu: u32,
    rules: (u8, bool, bool, bool, &str),
) -> PyResult<(i64, &'static str)> {
    if han > 1000 || fu > 1000 {
        return Err(bad("han and fu up to 1000"));
    }
    Ok(super::hand_value(han, fu, &rules_of(rules)?))
}

fn seat(players: usize, s: Option<usize>) -> PyResult<Option<usize>> {
    match s {
        Some(p) if p >= players => Err(bad("a seat past the table")),
        _ => Ok(s),
    }
}

fn amounts(values: &[i64]) -> PyResult<()> {
    if values.iter().any(|v| v.abs() > MOST_POINTS) {
        return Err(bad("an amount past 2**40"));
    }
    Ok(())
}

/// A win's deltas from its value (twin of `payments.win_deltas`): `main` and
/// `additional` as the valuation pays them, `honba` the count this winner collects (0
/// when another winner of a multiple ron does), `pao` the liable seat and `pao_value`
/// the `(main, additional)` of the part it is liable for (the whole hand when `None`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (players, winner, from_player, dealer, main, additional, honba, sticks, pao, pao_value))]
fn riichi_win_deltas(
    players: usize,
    winner: usize,
    from_player: usize,
    dealer: usize,
    main: i64,
    additional: i64,
    honba: i64,
    sticks: i64,
    pao: Option<usize>,
    pao_value: Option<(i64, i64)>,
) -> PyResult<Vec<i64>> {
    if !(2..=4).contains(&players)
        || winner >= players
        || dealer >= players
        || from_player >= players
    {
        return Err(bad(
            "2 to 4 players, the winner, discarder and dealer among them",
        ));
    }
    let pao = seat(players, pao)?;
    let (pm, pa) = pao_value.unwrap_or((main, additional));
    amounts(&[main, additional, honba, sticks, pm, pa])?;
    let whole = payments::ron_value(pm, pa, from_player == winner, winner == dealer);
    Ok(payments::win_deltas(
        players,
        winner,
        from_player,
        dealer,
        main,
        additional,
        honba,
        sticks,
        pao,
        whole,
    ))
}

/// Each seat's change for a win stated by its points (twin of `payments.points_deltas`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (points, players, winner, payer, dealer, honba, sticks, pao))]
fn riichi_points_deltas(
    points: i64,
    players: usize,
    winner: usize,
    payer: Option<usize>,
    dealer: usize,
    honba: i64,
    sticks: i64,
    pao: Option<usize>,
) -> PyResult<Vec<i64>> {
    if !(3..=4).contains(&players) || winner >= players || dealer >= players {
        return Err(bad("3 or 4 players, the winner and dealer among them"));
    }
    let (payer, pao) = (seat(players, payer)?, seat(players, pao)?);
    amounts(&[points, honba, sticks])?;
    Ok(payments::points_deltas(
        points, players, winner, payer, dealer, honba, sticks, pao,
    ))
}

/// An exhaustive draw's payments: nagashi mangan when `nagashi` names winners (twin of
/// `payments.nagashi_deltas`), else the noten payments (twin of `payments.draw_deltas`
/// with `noten_per_ready`).
#[pyfunction]
fn riichi_draw_deltas(
    tenpai: Vec<bool>,
    per_ready: i64,
    nagashi: Vec<usize>,
    dealer: usize,
) -> PyResult<Vec<i64>> {
    let n = tenpai.len();
    if !(2..=4).contains(&n) || dealer >= n || nagashi.iter().any(|&p| p >= n) {
        return Err(bad(
            "2 to 4 seats, the dealer and nagashi winners among them",
        ));
    }
    amounts(&[per_ready])?;
    Ok(if nagashi.is_empty() {
        payments::draw_deltas(&tenpai, per_ready)
    } else {
        payments::nagashi_deltas(&nagashi, dealer, n)
    })
}

/// The next round's `(round_wind, round_number, honba, dealer)` (twin of
/// `payments.next_round`).
#[pyfunction]
fn riichi_next_round(
    round: (i64, i64, i64),
    dealer: usize,
    players: usize,
    dealer_keeps: bool,
    honba_up: bool,
) -> PyResult<(i64, i64, i64, usize)> {
    let (wind, number, honba) = round;
    if !(2..=4).contains(&players) || dealer >= players {
        return Err(bad("2 to 4 players, the dealer among them"));
    }
    amounts(&[wind, number, honba])?;
    Ok(payments::next_round(
        wind,
        number,
        honba,
        dealer,
        players,
        dealer_keeps,
        honba_up,
    ))
}

type MeldRow = (u8, Vec<u16>, usize);
type SituationRow = (
    usize,
    (usize, usize, usize, usize, u8, u8),
    Vec<u16>,
    u16,
    Vec<MeldRow>,
    u32,
    (i64, i64),
    Vec<u16>,
    Vec<u16>,
    u32,
    (Option<i64>, Option<i64>),
);

fn meld_code(kind: MeldKind) -> u8 {
    match kind {
        MeldKind::Chi => 0,
        MeldKind::Pon => 1,
        MeldKind::OpenKan => 2,
        MeldKind::AddedKan => 3,
        MeldKind::ClosedKan => 4,
        MeldKind::Other => 5,
    }
}

/// Every win's situation in a game's event code, read from the native engine's table
/// (twin of `mjlog.families.riichi.scoring.verify.win_situations`): `(index, (winner,
/// from_player, players, dealer, seat_wind, round_wind), hand, win_tile, [(code, tiles,
/// from_player)], flags, (honba, kyotaku), dora indicators, ura indicators, kita)`, codes
/// and flags as `riichi_value` takes them, and the liable seat without and with
/// `open_kan_pao` (twin of `verify.liable_seat`). `ValueError` for bytes that are no code.
#[pyfunction]
fn riichi_win_situations(code: &[u8]) -> PyResult<Vec<SituationRow>> {
    if !code.len().is_multiple_of(8) {
        return Err(bad("an event code is a whole number of 64-bit words"));
    }
    let words: Vec<i64> = code
        .chunks_exact(8)
        .map(|w| i64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
        .collect();
    let mut obs = super::situation::Situations::default();
    crate::engine::replay_observed(&words, &mut [&mut obs])
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(obs
        .found
        .into_iter()
        .map(|w| {
            let pao = (
                verify::liable_seat(&w, false),
                verify::liable_seat(&w, true),
            );
            let s = w.sit;
            let flags = [
                s.riichi,
                s.double_riichi,
                s.ippatsu,
                s.haitei,
                s.houtei,
                s.rinshan,
                s.chankan,
                s.tenhou,
                s.chiihou,
            ]
            .iter()
            .enumerate()
            .map(|(i, &on)| u32::from(on) << i)
            .sum();
            let melds = s
                .melds
                .into_iter()
                .map(|m| (meld_code(m.kind), m.tiles, m.from_player))
                .collect();
            (
                w.index,
                (
                    s.winner,
                    s.from_player,
                    w.players,
                    s.dealer,
                    s.seat_wind,
                    s.round_wind,
                ),
                s.hand,
                s.win_tile,
                melds,
                flags,
                (w.honba, w.kyotaku),
                s.dora_indicators,
                s.ura_indicators,
                s.kita,
                pao,
            )
        })
        .collect())
}

/// Adds this module's functions to `mjlog._native`.
/// A mismatch as `riichi_verify_code` gives it: code, event index, seat, field,
/// recorded, computed, message, round label, turn.
type MismatchRow = (
    &'static str,
    usize,
    Option<i64>,
    String,
    Py<PyAny>,
    Py<PyAny>,
    String,
    String,
    i64,
);

fn val_py(py: Python<'_>, v: &verify::Val) -> PyResult<Py<PyAny>> {
    Ok(match v {
        verify::Val::No => py.None(),
        verify::Val::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        verify::Val::Bool(b) => pyo3::types::PyBool::new(py, *b)
            .to_owned()
            .into_any()
            .unbind(),
        verify::Val::Text(t) => t.into_pyobject(py)?.into_any().unbind(),
    })
}

/// Score verification of a game's code (twin of `verify.Verifier` with the riichi judging
/// `scores=True, rules=False`): `(mismatches, engine findings, declined)`; `declined`
/// says why the game must be verified in Python (empty when it need not). `names` are
/// `mjlog.replay.code.claim_names()`; `options` the native audit's
/// (`mjlog.families.riichi.native.options_of`); `pao_named` whether the record's source
/// can name the liable seat. `ValueError` for bytes that are no code or a bad option.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn riichi_verify_code(
    py: Python<'_>,
    code: &[u8],
    names: Vec<String>,
    options: Vec<(String, String)>,
    pao_named: bool,
) -> PyResult<(
    Vec<MismatchRow>,
    Vec<(
        &'static str,
        usize,
        Option<usize>,
        String,
        bool,
        String,
        i64,
    )>,
    String,
)> {
    if !code.len().is_multiple_of(8) {
        return Err(bad("an event code is a whole number of 64-bit words"));
    }
    let words: Vec<i64> = code
        .chunks_exact(8)
        .map(|w| i64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
        .collect();
    let evs = crate::engine_code::decode(&words).map_err(|e| bad(&e.to_string()))?;
    let runs = verify::win_runs(&evs);
    drop(evs);
    let options = crate::riichi::Options::from_pairs(&options).map_err(|e| bad(&e))?;
    let opts = verify::VerifyOptions::of(&options, pao_named);
    let mut v = verify::Verifier::new(opts, names, runs);
    let replay =
        crate::engine::replay_observed(&words, &mut [&mut v]).map_err(|e| bad(&e.to_string()))?;
    let rows = mismatch_rows(py, &v.out)?;
    Ok((rows, finding_rows(replay.findings), v.declined))
}

fn mismatch_rows(py: Python<'_>, out: &[verify::Mismatch]) -> PyResult<Vec<MismatchRow>> {
    let mut rows = Vec::with_capacity(out.len());
    for m in out {
        rows.push((
            m.code,
            m.index,
            m.player,
            m.field.clone(),
            val_py(py, &m.recorded)?,
            val_py(py, &m.computed)?,
            m.message.clone(),
            m.round.clone(),
            m.turn,
        ));
    }
    Ok(rows)
}

/// An engine finding as the bindings give it: code, event index, seat, message, note,
/// round label, turn.
type FindingRow = (
    &'static str,
    usize,
    Option<usize>,
    String,
    bool,
    String,
    i64,
);

fn finding_rows(findings: Vec<crate::engine::Finding>) -> Vec<FindingRow> {
    findings
        .into_iter()
        .map(|f| {
            (
                f.code, f.index, f.player, f.message, f.note, f.round, f.turn,
            )
        })
        .collect()
}

/// A violation as `audit_code` gives it: code, event index, seat, round label, turn,
/// message, evidence pairs, the round's dealer.
type ViolationRow = (
    &'static str,
    usize,
    Option<usize>,
    String,
    i64,
    String,
    Vec<(&'static str, String)>,
    usize,
);

/// The whole riichi audit of a game's code in one replay: with `rules`, the referee and
/// the native checks named in `checks` (as `audit_code`), then the score verifier (as
/// `riichi_verify_code`) at each event. Gives `(findings, findings left out, violations,
/// violations left out, declined, mismatches, (wins, wins verified, draws, draws
/// verified), final scores)`; `declined`: why the Python route must audit the game (a
/// check's or the verifier's reason; empty when neither declines); final scores empty
/// when no table was set. `ValueError` for bytes that are no code or a bad option.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn riichi_audit_code(
    py: Python<'_>,
    code: &[u8],
    options: Vec<(String, String)>,
    checks: Vec<String>,
    rules: bool,
    names: Vec<String>,
    pao_named: bool,
) -> PyResult<(
    Vec<FindingRow>,
    usize,
    Vec<ViolationRow>,
    usize,
    String,
    Vec<MismatchRow>,
    [usize; 4],
    Vec<i64>,
)> {
    if !code.len().is_multiple_of(8) {
        return Err(bad("an event code is a whole number of 64-bit words"));
    }
    let words: Vec<i64> = code
        .chunks_exact(8)
        .map(|w| i64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
        .collect();
    let evs = crate::engine_code::decode(&words).map_err(|e| bad(&e.to_string()))?;
    let runs = verify::win_runs(&evs);
    drop(evs);
    let options = crate::riichi::Options::from_pairs(&options).map_err(|e| bad(&e))?;
    let mut v = verify::Verifier::new(verify::VerifyOptions::of(&options, pao_named), names, runs);
    let (replay, judged) = crate::riichi::audit_verified(&words, options, &checks, rules, &mut v)
        .map_err(|e| bad(&e.to_string()))?;
    let declined = if judged.declined.is_empty() {
        v.declined.clone()
    } else {
        judged.declined
    };
    let violations = judged
        .violations
        .into_iter()
        .map(|v| {
            (
                v.code, v.index, v.player, v.round, v.turn, v.message, v.evidence, v.dealer,
            )
        })
        .collect();
    Ok((
        finding_rows(replay.findings),
        replay.left_out,
        violations,
        judged.left_out,
        declined,
        mismatch_rows(py, &v.out)?,
        v.counts,
        replay.scores,
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(riichi_verify_code, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_audit_code, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_value, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_yaku_readings, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_hand_value, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_win_deltas, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_points_deltas, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_draw_deltas, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_next_round, m)?)?;
    m.add_function(wrap_pyfunction!(riichi_win_situations, m)?)?;
    Ok(())
}

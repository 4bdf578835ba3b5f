//! The bindings: `mjlog._native`, one Python class or function per twin.
//!
//! Every entry point validates what it is given and raises `ValueError` for what it
//! cannot take; none panics on any input.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use pyo3::types::PyList;
use pyo3::IntoPyObjectExt;

use crate::tenhou_facts::{self, Cell};
use crate::tenhou_shuffle;

/// One game's Tenhou shuffle (twin of `mjlog.wall.tenhou_shuffle.TenhouShuffler`'s walls).
#[pyclass(module = "mjlog._native")]
struct TenhouShuffler {
    inner: tenhou_shuffle::Shuffler,
}

#[pymethods]
impl TenhouShuffler {
    /// A generator seeded by `init_by_array(words)`; `raw` for the early-2009 form.
    #[new]
    fn new(words: Vec<u32>, raw: bool) -> PyResult<Self> {
        tenhou_shuffle::Shuffler::new(&words, raw)
            .map(|inner| Self { inner })
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The next round's wall: `(yama as bytes of tile ids, die 1, die 2)`.
    fn next_wall<'py>(
        &mut self,
        py: Python<'py>,
        players: u32,
    ) -> PyResult<(Bound<'py, PyBytes>, u8, u8)> {
        let wall = self
            .inner
            .next_wall(players)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok((PyBytes::new(py, &wall.yama), wall.dice.0, wall.dice.1))
    }
}

/// Statistics' fact rows of Tenhou XML games (twin of reading a game with
/// `mjlog.formats.tenhou_xml.read` and adding it with `mjlog.stats.facts.add_game`).
#[pyclass(module = "mjlog._native", frozen)]
struct TenhouFacts {
    names: tenhou_facts::Names,
}

#[pymethods]
impl TenhouFacts {
    /// The names the Python route gives: yaku by Tenhou id, limits by code, and
    /// `(RYUUKYOKU type, kind)` of each abortive draw.
    #[new]
    fn new(yaku: Vec<String>, limits: Vec<String>, abortive: Vec<(String, String)>) -> Self {
        Self {
            names: tenhou_facts::Names {
                yaku,
                limits,
                abortive,
            },
        }
    }

    /// The column order of a `player_rounds` row.
    #[classattr]
    fn player_round_columns() -> Vec<&'static str> {
        tenhou_facts::PLAYER_ROUND_COLUMNS.to_vec()
    }

    /// One game's XML text read: a `TenhouGame`, or the reason it is declined (a str).
    fn read<'py>(&self, py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        match tenhou_facts::read(text, &self.names) {
            Ok(game) => TenhouGame { game }.into_bound_py_any(py),
            Err(why) => why.into_bound_py_any(py),
        }
    }
}

/// A game read by `TenhouFacts.read`: its header for the Python reader to build the game
/// start from, and its fact rows.
#[pyclass(module = "mjlog._native", frozen)]
struct TenhouGame {
    game: tenhou_facts::GameFacts,
}

#[pymethods]
impl TenhouGame {
    #[getter]
    fn header(&self) -> Vec<(String, Vec<(String, String)>)> {
        self.game.header.clone()
    }
    #[getter]
    fn players(&self) -> usize {
        self.game.players
    }
    #[getter]
    fn first_scores(&self) -> Vec<i64> {
        self.game.first_scores.clone()
    }
    #[getter]
    fn first_hands(&self) -> Vec<Vec<u16>> {
        // u16, not u8: PyO3 gives a Vec<u8> to Python as bytes, not as tile ids
        let hands = self.game.first_hands.iter();
        hands
            .map(|h| h.iter().map(|t| u16::from(*t)).collect())
            .collect()
    }
    #[getter]
    fn rounding_owari(&self) -> Option<String> {
        self.game.rounding_owari.clone()
    }
    #[getter]
    fn owari(&self) -> String {
        self.game.owari.clone()
    }

    /// Append the rows to the batch's flat lists, with `game` as the game's number and
    /// `names[seat]` as each seat's player.
    fn extend(
        &self,
        game: i64,
        names: Vec<Bound<'_, PyAny>>,
        rounds: &Bound<'_, PyList>,
        player_rounds: &Bound<'_, PyList>,
        wins: &Bound<'_, PyList>,
        yaku: &Bound<'_, PyList>,
    ) -> PyResult<()> {
        if names.len() != self.game.players {
            return Err(PyValueError::new_err("one name per seat is needed"));
        }
        for (cells, list) in [
            (&self.game.rounds, rounds),
            (&self.game.player_rounds, player_rounds),
            (&self.game.wins, wins),
            (&self.game.yaku, yaku),
        ] {
            let py = list.py();
            let mut objects = Vec::with_capacity(cells.len());
            for cell in cells {
                objects.push(match cell {
                    Cell::Null => py.None().into_bound(py),
                    Cell::Bool(b) => b.into_bound_py_any(py)?,
                    Cell::Int(v) => v.into_bound_py_any(py)?,
                    Cell::Text(t) => t.into_bound_py_any(py)?,
                    Cell::Game => game.into_bound_py_any(py)?,
                    Cell::Name(seat) => names[*seat].clone(),
                });
            }
            list.call_method1("extend", (PyList::new(py, objects)?,))?;
        }
        Ok(())
    }
}

/// A Tenhou XML game scanned for the Python reader (twin of the reader's walk over the
/// XML tree): `(codes, others, lines, rounding_owari)`, or the reason it is declined (a
/// str). See `core/src/tenhou_scan.rs` for the codes.
#[pyfunction]
fn tenhou_scan<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    match crate::tenhou_scan::scan(text) {
        Ok(s) => (s.codes, s.others, s.lines, s.rounding_owari).into_bound_py_any(py),
        Err(why) => why.into_bound_py_any(py),
    }
}

/// A Tenhou XML game's fairness samples (twin of `mjlog.fairness.sample.sample_game` on
/// the game the Python reader reads), given its seed's key words, whether the seed is of
/// the hex form, and the game's players: one tuple per round, `(wind, number, honba,
/// dealer, layout, kinds, dice, shanten, pairs, ura)`, or the reason it is declined (a
/// str). See `core/src/tenhou_fairness.rs`.
#[pyfunction]
fn tenhou_fairness<'py>(
    py: Python<'py>,
    text: &[u8],
    words: Vec<u32>,
    hex: bool,
    players: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if !(3..=4).contains(&players) {
        return Err(PyValueError::new_err("a Tenhou game has 3 or 4 players"));
    }
    match crate::tenhou_fairness::read(text, &words, hex, players) {
        Ok(rounds) => {
            let mut out = Vec::with_capacity(rounds.len());
            for r in rounds {
                let kinds = PyBytes::new(py, &r.kinds);
                let pairs: Vec<u16> = r.pairs.iter().map(|&p| u16::from(p)).collect();
                let dice = (u16::from(r.dice.0), u16::from(r.dice.1));
                out.push(
                    (
                        r.wind, r.number, r.honba, r.dealer, r.layout, kinds, dice, r.shanten,
                        pairs, r.ura,
                    )
                        .into_bound_py_any(py)?,
                );
            }
            out.into_bound_py_any(py)
        }
        Err(why) => why.into_bound_py_any(py),
    }
}

/// The shanten of a closed hand of 13 or 14 tiles given by its 34 counts (twin of
/// `mjlog.hand.shape.shanten` with no called set).
#[pyfunction]
fn closed_shanten(counts: Vec<u8>) -> PyResult<i32> {
    let c: [u8; crate::hand::KINDS] = counts
        .try_into()
        .map_err(|_| PyValueError::new_err("34 counts are needed"))?;
    let tiles: u32 = c.iter().map(|&n| u32::from(n)).sum();
    if c.iter().any(|&n| n > 4) || !(13..=14).contains(&tiles) {
        return Err(PyValueError::new_err(
            "a closed hand of 13 or 14 tiles, each kind 0 to 4",
        ));
    }
    Ok(crate::hand::closed(&c))
}

/// Checks the arguments of the ukeire functions: 34 counts of 0..=4 making `tiles`
/// (3n + 1 or 3n + 2) with `melds` calls, `sets` from 1 to 5, and 34 unseen counts.
fn hand_args(
    counts: &[u8],
    unseen: &[u8],
    melds: i32,
    sets: i32,
    extra: i32,
) -> PyResult<([u8; crate::hand::KINDS], [u8; crate::hand::KINDS])> {
    let bad = || {
        PyValueError::new_err(
            "34 counts of 0 to 4 making 3 * (sets - melds) + 1 or + 2 tiles, sets 1 to 5, \
             and 34 unseen counts of 0 to 4",
        )
    };
    let c: [u8; crate::hand::KINDS] = counts.try_into().map_err(|_| bad())?;
    let u: [u8; crate::hand::KINDS] = unseen.try_into().map_err(|_| bad())?;
    let tiles: i32 = c.iter().map(|&n| i32::from(n)).sum();
    if c.iter().chain(u.iter()).any(|&n| n > 4)
        || !(1..=5).contains(&sets)
        || !(0..=sets).contains(&melds)
        || tiles != 3 * (sets - melds) + extra
    {
        return Err(bad());
    }
    Ok((c, u))
}

/// Every discard of a hand of 3n + 2 tiles (twin of
/// `mjlog.decisions.efficiency.discard_options`): for each kind held, most accepting
/// first (least shanten, most unseen copies, then kind order),
/// `(kind, shanten left, ukeire mask, unseen copies of the ukeire)`. `counts` and
/// `unseen` are 34 bytes; `here` has bit `k` for the kinds the table holds.
#[pyfunction]
fn discard_options(
    counts: &[u8],
    melds: i32,
    sets: i32,
    here: u64,
    unseen: &[u8],
) -> PyResult<Vec<(u8, i32, u64, u32)>> {
    let (c, u) = hand_args(counts, unseen, melds, sets, 2)?;
    Ok(crate::hand::discard_options(&c, melds, sets, here, &u)
        .into_iter()
        .map(|o| (o.kind, o.shanten, o.ukeire, o.count))
        .collect())
}

/// The shanten, ukeire mask and unseen copies of the ukeire of a hand of 3n + 1 tiles
/// (twin of `mjlog.decisions.efficiency.hand_ukeire`).
#[pyfunction]
fn hand_ukeire(
    counts: &[u8],
    melds: i32,
    sets: i32,
    here: u64,
    unseen: &[u8],
) -> PyResult<(i32, u64, u32)> {
    let (c, u) = hand_args(counts, unseen, melds, sets, 1)?;
    Ok(crate::hand::hand_ukeire(&c, melds, sets, here, &u))
}

/// A hand's counts by kind from its tile ids (any iterable of ints), or `None` when it
/// holds a tile of no riichi kind (a flower, an unknown tile) or a kind five times.
fn kind_counts(tiles: &Bound<'_, PyAny>) -> PyResult<Option<[u8; crate::hand::KINDS]>> {
    let mut c = [0u8; crate::hand::KINDS];
    for t in tiles.try_iter()? {
        let k = t?.extract::<usize>()? >> 2;
        if k >= crate::hand::KINDS || c[k] >= 4 {
            return Ok(None);
        }
        c[k] += 1;
    }
    Ok(Some(c))
}

/// One option as Python sees it: `(kind, shanten, ukeire mask, unseen copies)`.
type Row = (u8, i32, u64, u32);

/// A discard decision's facts in one call (twin of
/// `mjlog.decisions.efficiency.py_discard_facts`): from the hand's tile ids
/// (`concealed`), its calls, the copies of each kind the table has not shown (`rest`, 34
/// bytes or a bytearray), the kinds kuikae forbids (a mask) and the kind thrown, `(options most
/// accepting first, best kinds, loss or None, unseen copies as 34 bytes)`; `None` for a
/// hand it does not count (a flower or unknown tile, a size that does not discard, more
/// copies of a kind than the table has left), which the caller then explains.
#[pyfunction]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn discard_facts<'py>(
    py: Python<'py>,
    concealed: &Bound<'py, PyAny>,
    melds: i32,
    sets: i32,
    here: u64,
    rest: &Bound<'py, PyAny>,
    forbidden: u64,
    tile: u32,
) -> PyResult<Option<(Vec<Row>, Vec<u16>, Option<(i32, i64)>, Bound<'py, PyBytes>)>> {
    let rest = left_copies(rest)?;
    let Some(c) = kind_counts(concealed)? else {
        return Ok(None);
    };
    let tiles: i32 = c.iter().map(|&n| i32::from(n)).sum();
    if !(1..=5).contains(&sets) || !(0..=sets).contains(&melds) || tiles != 3 * (sets - melds) + 2 {
        return Ok(None);
    }
    let mut unseen = [0u8; crate::hand::KINDS];
    for k in 0..crate::hand::KINDS {
        if rest[k] < c[k] || rest[k] > 4 {
            return Ok(None);
        }
        unseen[k] = rest[k] - c[k];
    }
    let options = crate::hand::discard_options(&c, melds, sets, here, &unseen);
    let (best, loss) = crate::hand::judge(&options, forbidden, tile);
    let rows = options
        .iter()
        .map(|o| (o.kind, o.shanten, o.ukeire, o.count))
        .collect();
    // u16, not u8: PyO3 gives a Vec<u8> to Python as bytes, not as kinds
    let best = best.into_iter().map(u16::from).collect();
    Ok(Some((rows, best, loss, PyBytes::new(py, &unseen))))
}

/// The shanten, ukeire mask and unseen copies of the ukeire of a hand offered a call
/// (twin of `mjlog.decisions.efficiency.py_offer_ukeire`), from its tile ids, its calls,
/// and the copies of each kind the table has not shown (`rest`, 34 bytes or a bytearray);
/// or why not: 1 for a hand that is not one tile short of complete (or holds a flower or
/// an unknown tile), 2 for one holding more copies of a kind than the table has left.
#[pyfunction]
fn offer_ukeire<'py>(
    py: Python<'py>,
    concealed: &Bound<'py, PyAny>,
    melds: i32,
    sets: i32,
    here: u64,
    rest: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let rest = left_copies(rest)?;
    let mut c = [0u8; crate::hand::KINDS];
    for t in concealed.try_iter()? {
        let k = t?.extract::<usize>()? >> 2;
        if k >= crate::hand::KINDS {
            return 1.into_bound_py_any(py);
        }
        c[k] = c[k].saturating_add(1);
    }
    let tiles: i32 = c.iter().map(|&n| i32::from(n)).sum();
    if !(1..=5).contains(&sets) || !(0..=sets).contains(&melds) || tiles != 3 * (sets - melds) + 1 {
        return 1.into_bound_py_any(py);
    }
    let mut unseen = [0u8; crate::hand::KINDS];
    for k in 0..crate::hand::KINDS {
        if rest[k] < c[k] || rest[k] > 4 {
            return 2.into_bound_py_any(py);
        }
        unseen[k] = rest[k] - c[k];
    }
    crate::hand::hand_ukeire(&c, melds, sets, here, &unseen).into_bound_py_any(py)
}

/// 34 counts of copies left, from bytes or a bytearray.
fn left_copies(rest: &Bound<'_, PyAny>) -> PyResult<[u8; crate::hand::KINDS]> {
    let rest = if let Ok(b) = rest.cast::<PyByteArray>() {
        b.to_vec()
    } else {
        rest.cast::<PyBytes>()?.as_bytes().to_vec()
    };
    rest.try_into()
        .map_err(|_| PyValueError::new_err("34 counts of copies left are needed"))
}

/// The calls each hand allows on a discard of `kind` (twin of
/// `mjlog.decisions.efficiency.py_call_offers`): `hands` holds each seat's tile ids, or
/// `None` for a seat not offered the tile; chi only for seat `chi_seat` and a number kind.
/// One `(seat, pon, open kan, chi shapes)` per seat allowed any, where bit 0, 1 and 2 of
/// the shapes are the chi with the two kinds below, around and above the tile.
#[pyfunction]
fn call_offers(
    hands: Vec<Option<Bound<'_, PyAny>>>,
    kind: usize,
    chi_seat: i64,
) -> PyResult<Vec<(usize, bool, bool, u8)>> {
    let mut out = Vec::new();
    if kind >= crate::hand::KINDS {
        return Ok(out);
    }
    for (q, hand) in hands.iter().enumerate() {
        let Some(hand) = hand else { continue };
        // held[j]: copies of kind - 2 + j
        let mut held = [0u8; 5];
        for t in hand.try_iter()? {
            let k = t?.extract::<usize>()? >> 2;
            if k < crate::hand::KINDS && k + 2 >= kind && k <= kind + 2 {
                held[k + 2 - kind] += 1;
            }
        }
        let mut chi = 0u8;
        if i64::try_from(q).is_ok_and(|q| q == chi_seat) && kind < 27 {
            let n = kind % 9;
            for (bit, (a, b)) in [(0usize, 1usize), (1, 3), (3, 4)].into_iter().enumerate() {
                // a and b index held: 0 is kind - 2 … 4 is kind + 2
                if n + a >= 2 && n + b <= 10 && held[a] > 0 && held[b] > 0 {
                    chi |= 1 << bit;
                }
            }
        }
        let (pon, kan) = (held[2] >= 2, held[2] >= 3);
        if pon || chi != 0 {
            out.push((q, pon, kan, chi));
        }
    }
    Ok(out)
}

/// Starting shanten and pairs of dealers (row 0, the wall's first 14 kinds) and the other
/// seats (row 1, 13 each after them) over walls of `size` kinds each, concatenated (twin
/// of the loop of `mjlog.fairness.inference.uniform_hands`): two flat rows-first
/// histograms, shanten from -1 (10 bins) and pairs from 0 (8 bins).
#[pyfunction]
fn uniform_hands(walls: &[u8], size: usize, players: usize) -> PyResult<(Vec<i64>, Vec<i64>)> {
    if !(3..=4).contains(&players)
        || size < 1 + 13 * players
        || !walls.len().is_multiple_of(size)
        || walls.iter().any(|&k| usize::from(k) >= crate::hand::KINDS)
    {
        return Err(PyValueError::new_err(
            "walls of kinds 0..33, each long enough to deal",
        ));
    }
    let (mut s, mut p) = (vec![0i64; 20], vec![0i64; 16]);
    for wall in walls.chunks(size) {
        for k in 0..players {
            let hand = if k == 0 {
                &wall[..14]
            } else {
                &wall[1 + 13 * k..14 + 13 * k]
            };
            let mut c = [0u8; crate::hand::KINDS];
            for &kind in hand {
                c[usize::from(kind)] += 1;
            }
            if c.iter().any(|&n| n > 4) {
                return Err(PyValueError::new_err(
                    "a kind more than four times in a hand",
                ));
            }
            let row = usize::from(k != 0);
            s[row * 10 + (crate::hand::closed(&c) + 1) as usize] += 1;
            p[row * 8 + usize::from(crate::hand::pairs(&c))] += 1;
        }
    }
    Ok((s, p))
}

/// One finding of the table engine: (code, event index, seat or None, message, whether
/// it is a note, round label, turn).
type EngineFinding = (
    &'static str,
    usize,
    Option<usize>,
    String,
    bool,
    String,
    i64,
);

/// One game's findings from its event code (twin of `mjlog.replay.engine.Engine` run
/// without observers or payer; the code is `mjlog.replay.code.encode`'s, native-endian
/// 64-bit words): the findings kept and how many past the cap were only counted.
/// `ValueError` for bytes that are no code.
#[pyfunction]
fn replay_code(code: &[u8]) -> PyResult<(Vec<EngineFinding>, usize)> {
    if !code.len().is_multiple_of(8) {
        return Err(PyValueError::new_err(
            "an event code is a whole number of 64-bit words",
        ));
    }
    let words: Vec<i64> = code
        .chunks_exact(8)
        .map(|w| i64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
        .collect();
    let out = crate::engine::replay(&words).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let findings = out
        .findings
        .into_iter()
        .map(|f| {
            (
                f.code, f.index, f.player, f.message, f.note, f.round, f.turn,
            )
        })
        .collect();
    Ok((findings, out.left_out))
}

/// One violation of the native riichi checks: (code, event index, seat or None, round
/// label, turn, message, evidence pairs, the round's dealer).
type NativeViolation = (
    &'static str,
    usize,
    Option<usize>,
    String,
    i64,
    String,
    Vec<(&'static str, String)>,
    usize,
);

/// The riichi audit of a game's code (`crate::riichi::audit`) under the options given as
/// `(name, value)` pairs, with the native checks named (none: all the options enable):
/// `(findings, findings left out, violations, violations left out, declined)` (`declined`:
/// why the native audit declines the game, the Python route to judge it; empty when it
/// does not). `ValueError` for bytes that are no code or an option that is none.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn audit_code(
    code: &[u8],
    options: Vec<(String, String)>,
    checks: Vec<String>,
) -> PyResult<(
    Vec<EngineFinding>,
    usize,
    Vec<NativeViolation>,
    usize,
    String,
)> {
    if !code.len().is_multiple_of(8) {
        return Err(PyValueError::new_err(
            "an event code is a whole number of 64-bit words",
        ));
    }
    let words: Vec<i64> = code
        .chunks_exact(8)
        .map(|w| i64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
        .collect();
    let options = crate::riichi::Options::from_pairs(&options).map_err(PyValueError::new_err)?;
    let (replay, judged) = crate::riichi::audit(&words, options, &checks)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let findings = replay
        .findings
        .into_iter()
        .map(|f| {
            (
                f.code, f.index, f.player, f.message, f.note, f.round, f.turn,
            )
        })
        .collect();
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
        findings,
        replay.left_out,
        violations,
        judged.left_out,
        judged.declined,
    ))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<TenhouShuffler>()?;
    m.add_class::<TenhouFacts>()?;
    m.add_class::<TenhouGame>()?;
    m.add_function(wrap_pyfunction!(tenhou_scan, m)?)?;
    m.add_function(wrap_pyfunction!(tenhou_fairness, m)?)?;
    m.add_function(wrap_pyfunction!(closed_shanten, m)?)?;
    m.add_function(wrap_pyfunction!(uniform_hands, m)?)?;
    m.add_function(wrap_pyfunction!(discard_options, m)?)?;
    m.add_function(wrap_pyfunction!(hand_ukeire, m)?)?;
    m.add_function(wrap_pyfunction!(discard_facts, m)?)?;
    m.add_function(wrap_pyfunction!(call_offers, m)?)?;
    m.add_function(wrap_pyfunction!(offer_ukeire, m)?)?;
    m.add_function(wrap_pyfunction!(replay_code, m)?)?;
    m.add_function(wrap_pyfunction!(audit_code, m)?)?;
    crate::scoring::register_python(m)?;
    m.add_function(wrap_pyfunction!(crate::python_wall::wall_check, m)?)?;
    m.add_class::<crate::python_code::EventCoder>()?;
    Ok(())
}

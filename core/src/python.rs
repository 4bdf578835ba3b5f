//! The bindings: `mjlog._native`, one Python class or function per twin.
//!
//! Every entry point validates what it is given and raises `ValueError` for what it
//! cannot take; none panics on any input.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<TenhouShuffler>()?;
    m.add_class::<TenhouFacts>()?;
    m.add_class::<TenhouGame>()?;
    m.add_function(wrap_pyfunction!(tenhou_scan, m)?)?;
    Ok(())
}

//! The event code written from Python event objects (twin of `mjlog.replay.code.row`,
//! event by event): `EventCoder.rows` writes the rows of the events whose every value
//! is plainly what its class says (an `int`, not a `bool`, within the code's bound; a
//! tuple where a list goes) and leaves the others, holes, to the Python encoder, which
//! writes or declines them. It never declines anything itself, so the code is the
//! Python encoder's by construction wherever it writes a row, and the differential
//! test compares the two byte for byte.

use std::collections::HashMap;

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyList, PyTuple};

use crate::engine_code::kind as k;

/// Every value of a code lies strictly within +-BOUND (`mjlog.replay.code.BOUND`).
const BOUND: i64 = 1 << 40;

/// The row kinds of the event classes, by the classes' type objects.
#[pyclass(module = "mjlog._native", frozen)]
pub struct EventCoder {
    kinds: HashMap<usize, i64>,
    /// The rows of the events shared between records (the readers' draws and discards),
    /// by their addresses, written once.
    shared: HashMap<usize, Vec<u8>>,
    /// The classes and shared events, held so that their addresses name them as long as
    /// the coder lives.
    _held: Vec<Py<PyAny>>,
}

/// No row here: the Python encoder writes it (or declines the game).
struct Hole;

type Row = Result<(), Hole>;

fn int(v: &Bound<'_, PyAny>) -> Result<i64, Hole> {
    if !v.is_exact_instance_of::<PyInt>() {
        return Err(Hole);
    }
    let x: i64 = v.extract().map_err(|_| Hole)?;
    if -BOUND < x && x < BOUND {
        Ok(x)
    } else {
        Err(Hole)
    }
}

/// Writes one event's fields.
struct Writer<'a, 'py> {
    ev: &'a Bound<'py, PyAny>,
    out: &'a mut Vec<u8>,
}

impl<'py> Writer<'_, 'py> {
    fn get(&self, name: &Bound<'py, pyo3::types::PyString>) -> Result<Bound<'py, PyAny>, Hole> {
        self.ev.getattr(name).map_err(|_| Hole)
    }
    fn push(&mut self, w: i64) {
        self.out.extend_from_slice(&w.to_ne_bytes());
    }
    fn int(&mut self, name: &Bound<'py, pyo3::types::PyString>) -> Row {
        let v = int(&self.get(name)?)?;
        self.push(v);
        Ok(())
    }
    fn flag(&mut self, name: &Bound<'py, pyo3::types::PyString>) -> Row {
        let v = self.get(name)?.is_truthy().map_err(|_| Hole)?;
        self.push(i64::from(v));
        Ok(())
    }
    /// A list: its length, then its items (a tuple only; anything else is a hole).
    fn tuple(&mut self, v: &Bound<'py, PyAny>) -> Row {
        let t = v.cast_exact::<PyTuple>().map_err(|_| Hole)?;
        self.push(t.len() as i64);
        for item in t.iter() {
            let x = int(&item)?;
            self.push(x);
        }
        Ok(())
    }
    fn list(&mut self, name: &Bound<'py, pyo3::types::PyString>) -> Row {
        let v = self.get(name)?;
        self.tuple(&v)
    }
    /// An optional per-seat list: -1 for None.
    fn seats(&mut self, name: &Bound<'py, pyo3::types::PyString>) -> Row {
        let v = self.get(name)?;
        if v.is_none() {
            self.push(-1);
            Ok(())
        } else {
            self.tuple(&v)
        }
    }
    /// The seats whose item of a per-seat field is not None, as a bit mask (0 for None).
    fn shown(&mut self, name: &Bound<'py, pyo3::types::PyString>) -> Row {
        let v = self.get(name)?;
        let mut mask = 0i64;
        if !v.is_none() {
            let t = v.cast_exact::<PyTuple>().map_err(|_| Hole)?;
            if t.len() > 32 {
                return Err(Hole);
            }
            for (p, item) in t.iter().enumerate() {
                if !item.is_none() {
                    mask |= 1 << p;
                }
            }
        }
        self.push(mask);
        Ok(())
    }
    /// The length of a per-seat field (0 for None).
    fn count(&mut self, name: &Bound<'py, pyo3::types::PyString>) -> Row {
        let v = self.get(name)?;
        let n = if v.is_none() {
            0
        } else {
            v.cast_exact::<PyTuple>().map_err(|_| Hole)?.len() as i64
        };
        self.push(n);
        Ok(())
    }
}

fn round_start<'py>(py: Python<'py>, w: &mut Writer<'_, 'py>) -> Row {
    let hands = w.get(intern!(py, "hands"))?;
    let hands = hands.cast_exact::<PyTuple>().map_err(|_| Hole)?;
    let scores = w.get(intern!(py, "scores"))?;
    let scores_len = scores.cast_exact::<PyTuple>().map_err(|_| Hole)?.len();
    let results_only = w
        .get(intern!(py, "results_only"))?
        .is_truthy()
        .map_err(|_| Hole)?;
    if !(3..=4).contains(&hands.len()) || (scores_len == 0 && !results_only) {
        return Err(Hole); // the Python encoder declines these
    }
    for name in ["round_wind", "round_number", "honba", "kyotaku", "dealer"] {
        w.int(&pyo3::types::PyString::intern(py, name))?;
    }
    w.int(intern!(py, "dora_indicator"))?;
    w.push(i64::from(results_only));
    w.tuple(&scores)?;
    w.push(hands.len() as i64);
    for hand in hands.iter() {
        w.tuple(&hand)?;
    }
    Ok(())
}

fn row<'py>(py: Python<'py>, kind: i64, w: &mut Writer<'_, 'py>) -> Row {
    w.push(kind);
    let player = intern!(py, "player");
    match kind {
        k::ROUND_START => round_start(py, w)?,
        k::DRAW => {
            w.int(player)?;
            w.int(intern!(py, "tile"))?;
            w.flag(intern!(py, "rinshan"))?;
        }
        k::KITA => {
            w.int(player)?;
            w.int(intern!(py, "tile"))?;
        }
        k::DISCARD => {
            w.int(player)?;
            w.int(intern!(py, "tile"))?;
            w.flag(intern!(py, "riichi"))?;
        }
        k::CHI | k::PON | k::OPEN_KAN | k::ADDED_KAN => {
            w.int(player)?;
            w.int(intern!(py, "from_player"))?;
            w.int(intern!(py, "called"))?;
            if kind == k::ADDED_KAN {
                w.int(intern!(py, "added"))?;
            }
            w.list(intern!(py, "tiles"))?;
        }
        k::CLOSED_KAN => {
            w.int(player)?;
            w.list(intern!(py, "tiles"))?;
        }
        k::FLOWER => {
            w.int(player)?;
            w.int(intern!(py, "tile"))?;
            let from = w.get(intern!(py, "from_player"))?;
            if from.is_none() {
                w.push(0);
            } else {
                w.push(1);
                w.push(int(&from)?);
            }
        }
        k::RIICHI => {
            w.int(player)?;
            w.seats(intern!(py, "scores"))?;
        }
        k::READY | k::CHOMBO | k::DISCONNECT | k::RECONNECT => w.int(player)?,
        k::DORA => w.int(intern!(py, "indicator"))?,
        // a win's claims name yaku by the ids of `mjlog.replay.code.claim_id`: Python's row
        k::WIN => return Err(Hole),
        k::EXHAUSTIVE | k::ABORTIVE => {
            w.count(intern!(py, "hands"))?;
            w.shown(intern!(py, "hands"))?;
            if kind == k::ABORTIVE {
                let which = w.get(intern!(py, "kind"))?;
                let which = which
                    .cast_exact::<pyo3::types::PyString>()
                    .map_err(|_| Hole)?;
                let which = which.to_str().map_err(|_| Hole)?;
                let at = crate::riichi::draws::ABORTIVE_KINDS
                    .iter()
                    .position(|&x| x == which);
                w.push(at.map_or(-1, |i| i as i64));
            }
            w.seats(intern!(py, "deltas"))?;
            w.seats(intern!(py, "scores_before"))?;
            if kind == k::EXHAUSTIVE {
                w.flag(intern!(py, "nagashi"))?;
            }
        }
        k::ROUND_END => w.seats(intern!(py, "scores"))?,
        k::GAME_END => {
            w.seats(intern!(py, "scores"))?;
            w.count(intern!(py, "points"))?;
        }
        k::NOOP => {}
        _ => return Err(Hole),
    }
    Ok(())
}

impl EventCoder {
    /// Writes `ev`'s row at the end of `out`; false (and `out` as it was) for a hole.
    fn write(&self, py: Python<'_>, ev: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> bool {
        let at = out.len();
        let written = match self.kinds.get(&(ev.get_type().as_ptr() as usize)) {
            Some(&kind) => row(py, kind, &mut Writer { ev, out }).is_ok(),
            None => false,
        };
        if !written {
            out.truncate(at);
        }
        written
    }
}

#[pymethods]
impl EventCoder {
    /// A coder for these `(class, row kind)` pairs; a class not among them (the game
    /// start, any other) is always a hole.
    #[new]
    fn new(
        py: Python<'_>,
        kinds: Vec<(Bound<'_, PyAny>, i64)>,
        shared: Vec<Bound<'_, PyAny>>,
    ) -> Self {
        let mut coder = Self {
            kinds: HashMap::new(),
            shared: HashMap::new(),
            _held: Vec::new(),
        };
        for (cls, kind) in kinds {
            coder.kinds.insert(cls.as_ptr() as usize, kind);
            coder._held.push(cls.unbind());
        }
        for ev in shared {
            let mut out = Vec::new();
            if coder.write(py, &ev, &mut out) {
                coder.shared.insert(ev.as_ptr() as usize, out);
                coder._held.push(ev.unbind());
            }
        }
        coder
    }

    /// The code of a list of events split at its holes: `(segments, holes)`, one more
    /// segment than holes; the game's code is the segments with each hole's row (the
    /// Python encoder's) between them.
    fn rows<'py>(
        &self,
        py: Python<'py>,
        events: &Bound<'py, PyList>,
    ) -> PyResult<(Vec<Bound<'py, PyBytes>>, Vec<usize>)> {
        let mut segments = Vec::new();
        let mut holes = Vec::new();
        let mut out: Vec<u8> = Vec::with_capacity(events.len() * 24);
        for (i, ev) in events.iter().enumerate() {
            if let Some(row) = self.shared.get(&(ev.as_ptr() as usize)) {
                out.extend_from_slice(row);
            } else if !self.write(py, &ev, &mut out) {
                segments.push(PyBytes::new(py, &out));
                out.clear();
                holes.push(i);
            }
        }
        segments.push(PyBytes::new(py, &out));
        if segments.len() != holes.len() + 1 {
            return Err(PyValueError::new_err("segments and holes out of step"));
        }
        Ok((segments, holes))
    }
}

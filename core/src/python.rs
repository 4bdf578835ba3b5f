//! The bindings: `mjlog._native`, one Python class or function per twin.
//!
//! Every entry point validates what it is given and raises `ValueError` for what it
//! cannot take; none panics on any input.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<TenhouShuffler>()?;
    Ok(())
}

//! mjlog's native core.
//!
//! Each public function here is the twin of a Python function of the `mjlog` package,
//! which stays its specification: the Python route (`MJLOG_PURE=1`) and this one must
//! give identical results, and the differential tests hold them so. The plain Rust
//! modules know nothing of Python; `python` (behind the feature of that name) binds them
//! as the extension module `mjlog._native`.

pub mod engine;
pub mod engine_code;
pub mod hand;
pub mod riichi;
pub mod scoring;
pub mod tenhou_facts;
pub mod tenhou_fairness;
pub mod tenhou_scan;
pub mod tenhou_shuffle;
pub mod tenhou_xml;
pub mod wall;

#[cfg(feature = "python")]
mod python;
#[cfg(feature = "python")]
mod python_code;
#[cfg(feature = "python")]
mod python_wall;

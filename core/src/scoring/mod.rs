//! Riichi win valuation, payments and the situation of each win (twins of
//! `mjlog.families.riichi.scoring.fast`, `payments`, `situation` and part of `verify`).
//!
//! `value` values the ordinary hands exactly as `fast.fast_value` does (the same
//! readings in the same order, the same yaku in the same order, the same tie-break) and
//! declines (`None`) exactly where it declines: any hand that is or could be a yakuman,
//! and hands without a winning reading or yaku (the Python route asks the `mahjong`
//! library then; a native audit declines the game). `payments` is the arithmetic of who
//! pays whom; `situation::Situations` an engine observer that reads each win's
//! `Situation` (the twin of `WinSituation`) from the table; `verify` the liable seat and
//! the score verifier (`verify::Verifier`, an engine observer over the code's claims).

pub mod payments;
pub mod situation;
mod value;
pub mod verify;

pub use value::{
    hand_value, next_kind, up100, value, yaku_readings, Kazoe, Meld, MeldKind, Rules, Situation,
    Value, YakuReading, NUM_TILES,
};

#[cfg(feature = "python")]
mod python;
#[cfg(feature = "python")]
pub(crate) use python::register as register_python;

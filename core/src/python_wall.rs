//! The binding of the wall proof (`crate::wall`) as `mjlog._native.wall_check`; its
//! Python side is `mjlog/wall/native.py`, which builds the arguments from a record.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::wall::{self, Form, Input, RoundIn, RoundWall, Seed};

/// A seed as Python passes it: its form's name and its key words.
type SeedArg = (String, Vec<u32>);
/// A published wall: dealt hands by seat, live wall, replacement tiles, dora and ura
/// indicators, in the order `WallSource` gives them.
type WallArg = (Vec<Vec<i64>>, Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>);
/// A round: recorded dice, what it brings (0 nothing, 1 a published wall, 2 its own seed,
/// 3 its own seed unreadable), the published wall's problems and wall, its seed, why.
type RoundArg = (
    Vec<i64>,
    u8,
    Vec<(String, String)>,
    Option<WallArg>,
    Option<SeedArg>,
    String,
);
/// A finding: code, event index, seat, message, whether a note, round label, turn.
type WallFinding = (
    &'static str,
    usize,
    Option<usize>,
    String,
    bool,
    String,
    i64,
);

fn seed_of((form, words): SeedArg) -> PyResult<Seed> {
    let form = match form.as_str() {
        "base64" => Form::Base64,
        "hex" => Form::Hex,
        "mt19937ar" => Form::Raw,
        other => return Err(PyValueError::new_err(format!("no seed form {other:?}"))),
    };
    Ok(Seed { form, words })
}

fn round_of((dice, kind, problems, wall, seed, why): RoundArg) -> PyResult<(Vec<i64>, RoundIn)> {
    if let Some((code, _)) = problems
        .iter()
        .find(|(c, _)| !wall::PROBLEMS.contains(&c.as_str()))
    {
        return Err(PyValueError::new_err(format!("no wall problem {code:?}")));
    }
    let brings = match kind {
        0 => RoundIn::Plain,
        1 => RoundIn::Published {
            problems,
            wall: wall.map(|(dealt, live, rinshan, dora, ura)| RoundWall {
                by_kind: true,
                dice: dice.clone(),
                dealt,
                yama: None,
                live,
                rinshan,
                dora,
                ura,
            }),
        },
        2 => match seed {
            Some(s) => RoundIn::Seed(seed_of(s)?),
            None => return Err(PyValueError::new_err("a round of kind 2 needs its seed")),
        },
        3 => RoundIn::SeedError(why),
        k => return Err(PyValueError::new_err(format!("no round kind {k}"))),
    };
    Ok((dice, brings))
}

/// The wall proof of one game (twin of `mjlog.wall.verify.verify` for Tenhou seeds and
/// published walls): `code` is `mjlog.replay.code.encode`'s, `seed` the game's parsed
/// seed (or `None` and `why` there is none), `rounds` one entry per round start
/// (`mjlog/wall/native.py`). `ValueError` for bytes that are no code or bad arguments.
#[pyfunction]
pub fn wall_check(
    code: &[u8],
    seed: Option<SeedArg>,
    why: String,
    rounds: Vec<RoundArg>,
) -> PyResult<Vec<WallFinding>> {
    if !code.len().is_multiple_of(8) {
        return Err(PyValueError::new_err(
            "an event code is a whole number of 64-bit words",
        ));
    }
    let words: Vec<i64> = code
        .chunks_exact(8)
        .map(|w| i64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
        .collect();
    let input = Input {
        seed: match seed {
            Some(s) => Ok(seed_of(s)?),
            None => Err(why),
        },
        rounds: rounds.into_iter().map(round_of).collect::<PyResult<_>>()?,
    };
    let out = wall::verify(&words, &input).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(out
        .into_iter()
        .map(|f| {
            (
                f.code, f.index, f.player, f.message, f.note, f.round, f.turn,
            )
        })
        .collect())
}

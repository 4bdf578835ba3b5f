//! Fuzz target: any bytes, as native-endian 64-bit words, into the table engine. It must
//! refuse the code or replay it, never panic, and a replay's findings must hold together
//! (each at an event of the code, at most the cap kept).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mjlog_core::engine::{replay, PER_GAME};

fuzz_target!(|data: &[u8]| {
    let words: Vec<i64> = data
        .chunks_exact(8)
        .map(|w| i64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]))
        .collect();
    if let Ok(out) = replay(&words) {
        assert!(out.findings.len() <= PER_GAME);
        assert!(out.findings.iter().all(|f| f.index < words.len()));
        assert!(out.left_out == 0 || out.findings.len() == PER_GAME);
    }
});

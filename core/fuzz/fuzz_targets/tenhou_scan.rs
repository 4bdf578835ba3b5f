//! Fuzz target: any bytes into the Tenhou XML scan. It must decline or scan, never panic,
//! and a scan must hold together (a code per element, each a move's or an element's).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mjlog_core::tenhou_scan::scan;

fuzz_target!(|data: &[u8]| {
    if let Ok(s) = scan(data) {
        assert_eq!(s.codes.len(), s.lines.len());
        let others = s.codes.iter().filter(|c| **c < 0).count();
        assert_eq!(others, s.others.len());
        assert!(s.codes.iter().all(|c| *c < 6 * 4 * 136));
        for (k, (at, _, _)) in s.others.iter().enumerate() {
            assert_eq!(s.codes[*at], -(k as i64) - 1);
        }
    }
});

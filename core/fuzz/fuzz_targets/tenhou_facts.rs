//! Fuzz target: any bytes into the Tenhou XML fact reader. It must decline or read, never
//! panic, and what it reads must hold together (whole rows, one per seat and round).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mjlog_core::tenhou_facts::{read, Names, PLAYER_ROUND_COLUMNS};

fuzz_target!(|data: &[u8]| {
    let names = Names {
        yaku: (0..55).map(|i| format!("yaku-{i}")).collect(),
        limits: ["", "mangan", "haneman", "baiman", "sanbaiman", "yakuman"]
            .map(String::from)
            .to_vec(),
        abortive: vec![("yao9".into(), "nine-terminals".into())],
    };
    if let Ok(game) = read(data, &names) {
        let width = PLAYER_ROUND_COLUMNS.len();
        assert!(game.players == 3 || game.players == 4);
        assert_eq!(game.player_rounds.len() % (width * game.players), 0);
        assert_eq!(game.rounds.len() / 9, game.player_rounds.len() / width / game.players);
        assert_eq!(game.wins.len() % 22, 0);
        assert_eq!(game.yaku.len() % 6, 0);
    }
});

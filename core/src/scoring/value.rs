//! The fast valuation of ordinary riichi hands (twin of
//! `mjlog.families.riichi.scoring.fast.fast_value` and `hand_value`).
//!
//! Conventions are fast.py's (the `mahjong` library's and Tenhou's): a double-wind pair
//! is 4 fu, an open hand of 20 fu counts 30, a triplet completed by ron is open, the
//! reading paid most wins (then han, then fu, then the first). It declines (`None`) any
//! hand that could be a yakuman, tenhou and chiihou, four kans, and hands without a
//! winning reading; the caller then asks the reference library.

/// Tiles of a riichi set (ids 0..136); the kind of id `t` is `t / 4`.
pub const NUM_TILES: u16 = 136;
const KINDS: usize = 34;
const NORTH: u8 = 30;
const FU_BASE: u32 = 20;

/// Terminals and honours (kinds 0, 8, 9, 17, 18, 26 and 27..34).
fn terminal_or_honour(k: u8) -> bool {
    k >= 27 || k.is_multiple_of(9) || k % 9 == 8
}

fn dragon(k: u8) -> bool {
    (31..34).contains(&k)
}

fn wind(k: u8) -> bool {
    (27..31).contains(&k)
}

fn green(k: u8) -> bool {
    matches!(k, 19 | 20 | 21 | 23 | 25 | 32)
}

/// The dora a kind of indicator points to (three-player: 1m points to 9m).
pub fn next_kind(indicator: u8, three_player: bool) -> u8 {
    if indicator < 27 {
        if three_player && indicator == 0 {
            return 8;
        }
        return if indicator % 9 == 8 {
            indicator - 8
        } else {
            indicator + 1
        };
    }
    if indicator < 31 {
        return if indicator == 30 { 27 } else { indicator + 1 };
    }
    if indicator == 33 {
        31
    } else {
        indicator + 1
    }
}

/// The kind of call a meld is (the event class of `WinSituation.melds`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeldKind {
    Chi,
    Pon,
    OpenKan,
    AddedKan,
    ClosedKan,
    /// Any other set: fast.py declines the hand.
    Other,
}

/// One of the winner's sets: its kind of call and its tile ids (0..136); the seat it was
/// called from and the called tile (the added one of an added kan), which no value reads
/// (the liable seat and the pon an added kan joins do).
#[derive(Clone, Debug)]
pub struct Meld {
    pub kind: MeldKind,
    pub tiles: Vec<u16>,
    pub from_player: usize,
    pub called: u16,
}

/// The facts of one win (twin of `WinSituation`; tile ids 0..136).
#[derive(Clone, Debug, Default)]
pub struct Situation {
    pub winner: usize,
    pub from_player: usize,
    pub dealer: usize,
    /// 0..4 for east..north.
    pub seat_wind: u8,
    pub round_wind: u8,
    /// The concealed tiles, the win tile included.
    pub hand: Vec<u16>,
    pub win_tile: u16,
    pub melds: Vec<Meld>,
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    pub haitei: bool,
    pub houtei: bool,
    pub rinshan: bool,
    pub chankan: bool,
    pub tenhou: bool,
    pub chiihou: bool,
    pub dora_indicators: Vec<u16>,
    pub ura_indicators: Vec<u16>,
    pub kita: u32,
}

impl Situation {
    /// Whether the win is by self-draw.
    pub fn tsumo(&self) -> bool {
        self.from_player == self.winner
    }

    /// Whether the winner is the dealer.
    pub fn is_dealer(&self) -> bool {
        self.winner == self.dealer
    }
}

/// How counted yakuman (13 han and more) are paid (`RiichiOptions.kazoe`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kazoe {
    Yakuman,
    Sanbaiman,
    /// No limit: a yakuman per 13 han.
    None,
}

/// The ruleset options that change a value.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub three_player: bool,
    pub red_fives: bool,
    pub open_tanyao: bool,
    pub kiriage: bool,
    pub kazoe: Kazoe,
}

impl Default for Rules {
    /// Tenhou's: four players, red fives, open tanyao, no kiriage, kazoe yakuman.
    fn default() -> Self {
        Self {
            three_player: false,
            red_fives: true,
            open_tanyao: true,
            kiriage: false,
            kazoe: Kazoe::Yakuman,
        }
    }
}

/// A hand's value: fast.py's `(fu, han, yaku, limit, main, additional)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    pub fu: u32,
    pub han: u32,
    /// Yaku with their han, dora last, in fast.py's order.
    pub yaku: Vec<(&'static str, u32)>,
    pub limit: &'static str,
    pub main: i64,
    pub additional: i64,
}

/// A set: the first kind, a run, concealed, a kan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Set {
    kind: u8,
    run: bool,
    concealed: bool,
    kan: bool,
}

/// A split of some tiles: the pair's kind (or -1) and the sets.
type Split = (i16, Vec<Set>);

fn split(
    c: &mut [u8],
    mut i: usize,
    start: u8,
    honours: bool,
    pair: i16,
    sets: &mut Vec<Set>,
    out: &mut Vec<Split>,
) {
    let size = c.len();
    while i < size && c[i] == 0 {
        i += 1;
    }
    if i == size {
        out.push((pair, sets.clone()));
        return;
    }
    let kind = start + i as u8;
    if c[i] >= 3 {
        c[i] -= 3;
        sets.push(Set {
            kind,
            run: false,
            concealed: true,
            kan: false,
        });
        split(c, i, start, honours, pair, sets, out);
        sets.pop();
        c[i] += 3;
    }
    if !honours && i + 2 < size && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        sets.push(Set {
            kind,
            run: true,
            concealed: true,
            kan: false,
        });
        split(c, i, start, honours, pair, sets, out);
        sets.pop();
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
    if c[i] >= 2 && pair < 0 {
        c[i] -= 2;
        split(c, i, start, honours, i16::from(kind), sets, out);
        c[i] += 2;
    }
}

/// Every split of the concealed kind counts into sets and exactly one pair, in fast.py's
/// order (suit by suit: triplet before run before pair).
fn readings(counts: &[u8; KINDS]) -> Vec<Split> {
    let mut result: Vec<Split> = vec![(-1, Vec::new())];
    for (lo, hi, honours) in [
        (0, 9, false),
        (9, 18, false),
        (18, 27, false),
        (27, 34, true),
    ] {
        let mut part = Vec::new();
        let mut c = counts[lo..hi].to_vec();
        split(&mut c, 0, lo as u8, honours, -1, &mut Vec::new(), &mut part);
        if part.is_empty() {
            return Vec::new();
        }
        let mut next = Vec::new();
        for (p1, s1) in &result {
            for (p2, s2) in &part {
                if *p1 < 0 || *p2 < 0 {
                    let mut sets = s1.clone();
                    sets.extend_from_slice(s2);
                    next.push((if *p2 < 0 { *p1 } else { *p2 }, sets));
                }
            }
        }
        result = next;
    }
    result.retain(|r| r.0 >= 0);
    result
}

fn kind(t: u16) -> u8 {
    (t >> 2) as u8
}

fn meld_sets(melds: &[Meld]) -> Option<Vec<Set>> {
    melds
        .iter()
        .map(|m| {
            let k = kind(*m.tiles.first()?);
            let (kind, run, concealed, kan) = match m.kind {
                MeldKind::Chi => (
                    m.tiles.iter().map(|&t| self::kind(t)).min()?,
                    true,
                    false,
                    false,
                ),
                MeldKind::Pon => (k, false, false, false),
                MeldKind::OpenKan | MeldKind::AddedKan => (k, false, false, true),
                MeldKind::ClosedKan => (k, false, true, true),
                MeldKind::Other => return None,
            };
            Some(Set {
                kind,
                run,
                concealed,
                kan,
            })
        })
        .collect()
}

/// `x` rounded up to a multiple of 100 (how payments round).
pub fn up100(x: i64) -> i64 {
    (x + 99).div_euclid(100) * 100
}

/// (base points, limit name) of a hand of `han` and `fu` (twin of `fast.hand_value`).
pub fn hand_value(han: u32, fu: u32, rules: &Rules) -> (i64, &'static str) {
    if han >= 13 {
        return match rules.kazoe {
            Kazoe::Yakuman => (8000, "yakuman"),
            Kazoe::Sanbaiman => (6000, "sanbaiman"),
            Kazoe::None => (8000 * i64::from(han / 13), "yakuman"),
        };
    }
    if han >= 11 {
        return (6000, "sanbaiman");
    }
    if han >= 8 {
        return (4000, "baiman");
    }
    if han >= 6 {
        return (3000, "haneman");
    }
    if han >= 5 {
        return (2000, "mangan");
    }
    let base = i64::from(fu) * (1i64 << (han + 2));
    if rules.kiriage && ((han == 4 && fu == 30) || (han == 3 && fu == 60)) {
        return (2000, "");
    }
    if base > 2000 {
        return (2000, "mangan");
    }
    (base, "")
}

/// What every reading of one win shares (fast.py's `_Hand`).
struct Hand<'a> {
    sit: &'a Situation,
    rules: &'a Rules,
    melds: Vec<Set>,
    closed: bool,
    kinds: Vec<u8>,
    win: u8,
    suits: usize,
    honours: bool,
    simples: bool,
    dora: u32,
    red: u32,
    ura: u32,
}

fn count_of(kinds: &[u8], indicators: &[u8]) -> u32 {
    indicators
        .iter()
        .map(|d| kinds.iter().filter(|&&k| k == *d).count() as u32)
        .sum()
}

impl<'a> Hand<'a> {
    fn new(sit: &'a Situation, rules: &'a Rules, melds: Vec<Set>, kinds: Vec<u8>) -> Self {
        let mut seen = [false; KINDS];
        for &k in &kinds {
            seen[usize::from(k)] = true;
        }
        let mut suit = [false; 3];
        for k in 0..27 {
            if seen[k] {
                suit[k / 9] = true;
            }
        }
        let nxt = |t: &u16| next_kind(kind(*t), rules.three_player);
        let dora: Vec<u8> = sit.dora_indicators.iter().map(nxt).collect();
        let north = |v: &[u8]| v.iter().filter(|&&d| d == NORTH).count() as u32;
        let mut dora_han = count_of(&kinds, &dora);
        if sit.kita > 0 {
            dora_han += sit.kita * (1 + north(&dora));
        }
        let mut ura = 0;
        if sit.riichi || sit.double_riichi {
            let u: Vec<u8> = sit.ura_indicators.iter().map(nxt).collect();
            ura = count_of(&kinds, &u) + sit.kita * north(&u);
        }
        let mut red = 0;
        if rules.red_fives {
            let reds = |tiles: &[u16]| [16u16, 52, 88].iter().filter(|r| tiles.contains(r)).count();
            red = reds(&sit.hand) as u32;
            for m in &sit.melds {
                red += reds(&m.tiles) as u32;
            }
        }
        Self {
            sit,
            rules,
            closed: melds.iter().all(|m| m.concealed),
            melds,
            win: kind(sit.win_tile),
            suits: suit.iter().filter(|&&s| s).count(),
            honours: (27..34).any(|k| seen[k]),
            simples: (0..KINDS).all(|k| !seen[k] || !terminal_or_honour(k as u8)),
            kinds,
            dora: dora_han,
            red,
            ura,
        }
    }
}

/// (fu, han, yaku) of one reading.
type Reading = (u32, u32, Vec<(&'static str, u32)>);

/// Where the win tile sits: the pair (tanki), seven pairs, or the index of a set.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wait {
    Pair,
    SevenPairs,
    Set(usize),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum WaitKind {
    Ryanmen,
    Shanpon,
    Kanchan,
    Penchan,
    Tanki,
}

fn value_reading(h: &Hand, pair: i16, sets: &[Set], wait: Wait) -> Option<Reading> {
    let seven = wait == Wait::SevenPairs;
    let seat = 27 + h.sit.seat_wind;
    let round = 27 + h.sit.round_wind;
    let mut yaku: Vec<(&'static str, u32)> = Vec::new();
    let (fu, runs, triplets) = if seven {
        (25, Vec::new(), Vec::new())
    } else {
        let (sets, kw) = wait_of(h, sets, wait);
        let runs: Vec<Set> = sets.iter().copied().filter(|s| s.run).collect();
        let trips: Vec<Set> = sets.iter().copied().filter(|s| !s.run).collect();
        let fu = fu_of(h, pair, &trips, kw, seat, round, &mut yaku);
        (fu, runs, trips)
    };
    situation_yaku(h, seven, &mut yaku);
    if !seven {
        set_yaku(h, pair, &runs, &triplets, &mut yaku, seat, round);
    } else if h.kinds.iter().all(|&k| terminal_or_honour(k)) {
        yaku.push(("honroutou", 2));
    }
    let han: u32 = yaku.iter().map(|y| y.1).sum();
    if han == 0 {
        return None;
    }
    for (n, name) in [(h.dora, "dora"), (h.red, "aka-dora"), (h.ura, "ura-dora")] {
        if n > 0 {
            yaku.push((name, n));
        }
    }
    Some((fu, han + h.dora + h.red + h.ura, yaku))
}

fn wait_of(h: &Hand, sets: &[Set], wait: Wait) -> (Vec<Set>, WaitKind) {
    let mut sets = sets.to_vec();
    let Wait::Set(i) = wait else {
        return (sets, WaitKind::Tanki);
    };
    let s = sets[i];
    if !h.sit.tsumo() && !s.run {
        sets[i].concealed = false;
    }
    if s.run {
        let pos = i16::from(h.win) - i16::from(s.kind);
        let kw = if pos == 1 {
            WaitKind::Kanchan
        } else if (pos == 2 && s.kind.is_multiple_of(9)) || (pos == 0 && s.kind % 9 == 6) {
            WaitKind::Penchan
        } else {
            WaitKind::Ryanmen
        };
        return (sets, kw);
    }
    (sets, WaitKind::Shanpon)
}

/// Fu of a triplet or kan (twin of `fast.set_fu`).
fn set_fu(kind: u8, kan: bool, concealed: bool) -> u32 {
    2 * if terminal_or_honour(kind) { 2 } else { 1 }
        * if concealed { 2 } else { 1 }
        * if kan { 4 } else { 1 }
}

/// Fu of the pair (twin of `fast.pair_fu`).
fn pair_fu(kind: i16, seat: u8, round: u8) -> u32 {
    let is = |k: u8| kind == i16::from(k);
    let dragon_fu = if kind >= 0 && dragon(kind as u8) {
        2
    } else {
        0
    };
    dragon_fu + if is(seat) { 2 } else { 0 } + if is(round) { 2 } else { 0 }
}

fn fu_of(
    h: &Hand,
    pair: i16,
    trips: &[Set],
    kw: WaitKind,
    seat: u8,
    round: u8,
    yaku: &mut Vec<(&'static str, u32)>,
) -> u32 {
    let (closed, tsumo) = (h.closed, h.sit.tsumo());
    let wait_fu = match kw {
        WaitKind::Ryanmen | WaitKind::Shanpon => 0,
        _ => 2,
    };
    let mut fu = FU_BASE + pair_fu(pair, seat, round) + wait_fu;
    for s in trips {
        fu += set_fu(s.kind, s.kan, s.concealed);
    }
    if closed && fu == FU_BASE && kw == WaitKind::Ryanmen {
        yaku.push(("pinfu", 1));
    } else if tsumo {
        fu += 2;
    }
    if closed && !tsumo {
        fu += 10;
    } else if !closed && fu == FU_BASE {
        fu = 30;
    }
    fu.div_ceil(10) * 10
}

fn situation_yaku(h: &Hand, seven: bool, yaku: &mut Vec<(&'static str, u32)>) {
    let (sit, closed) = (h.sit, h.closed);
    if sit.tsumo() && closed {
        yaku.push(("menzen-tsumo", 1));
    }
    if sit.double_riichi {
        yaku.push(("double-riichi", 2));
    } else if sit.riichi {
        yaku.push(("riichi", 1));
    }
    for (on, name) in [
        (sit.ippatsu, "ippatsu"),
        (sit.rinshan, "rinshan-kaihou"),
        (sit.chankan, "chankan"),
        (sit.haitei, "haitei"),
        (sit.houtei, "houtei"),
    ] {
        if on {
            yaku.push((name, 1));
        }
    }
    if seven {
        yaku.push(("chiitoitsu", 2));
    }
    if h.simples && (closed || h.rules.open_tanyao) {
        yaku.push(("tanyao", 1));
    }
    if !h.honours && h.suits == 1 {
        yaku.push(("chinitsu", if closed { 6 } else { 5 }));
    } else if h.honours && h.suits == 1 {
        yaku.push(("honitsu", if closed { 3 } else { 2 }));
    }
}

const SEAT_WIND_YAKU: [&str; 4] = [
    "seat-wind-east",
    "seat-wind-south",
    "seat-wind-west",
    "seat-wind-north",
];
const ROUND_WIND_YAKU: [&str; 4] = [
    "round-wind-east",
    "round-wind-south",
    "round-wind-west",
    "round-wind-north",
];

fn set_yaku(
    h: &Hand,
    pair: i16,
    runs: &[Set],
    trips: &[Set],
    yaku: &mut Vec<(&'static str, u32)>,
    seat: u8,
    round: u8,
) {
    let mut starts: Vec<u8> = runs.iter().map(|s| s.kind).collect();
    starts.sort_unstable();
    let trip_kinds: Vec<u8> = trips.iter().map(|s| s.kind).collect();
    if h.closed {
        let mut distinct = starts.clone();
        distinct.dedup();
        let same: usize = distinct
            .iter()
            .map(|k| starts.iter().filter(|&s| s == k).count() / 2)
            .sum();
        if same == 2 {
            yaku.push(("ryanpeikou", 3));
        } else if same == 1 {
            yaku.push(("iipeikou", 1));
        }
    }
    for (k, name) in [(31, "haku"), (32, "hatsu"), (33, "chun")] {
        if trip_kinds.contains(&k) {
            yaku.push((name, 1));
        }
    }
    if trip_kinds.contains(&seat) {
        yaku.push((SEAT_WIND_YAKU[usize::from(seat - 27)], 1));
    }
    if trip_kinds.contains(&round) {
        yaku.push((ROUND_WIND_YAKU[usize::from(round - 27)], 1));
    }
    run_yaku(h.closed, &starts, yaku);
    triplet_yaku(pair, trips, &trip_kinds, !runs.is_empty(), yaku);
    let th_pair = pair >= 0 && terminal_or_honour(pair as u8);
    if th_pair
        && trip_kinds.iter().all(|&k| terminal_or_honour(k))
        && starts.iter().all(|k| k % 9 == 0 || k % 9 == 6)
    {
        if runs.is_empty() {
            yaku.push(("honroutou", 2));
        } else if h.honours {
            yaku.push(("chanta", if h.closed { 2 } else { 1 }));
        } else {
            yaku.push(("junchan", if h.closed { 3 } else { 2 }));
        }
    }
}

/// 三色同順 and 一気通貫.
fn run_yaku(closed: bool, starts: &[u8], yaku: &mut Vec<(&'static str, u32)>) {
    if starts.len() >= 3 {
        let has = |k: u8| starts.contains(&k);
        if starts.iter().any(|&k| k < 7 && has(k + 9) && has(k + 18)) {
            yaku.push(("sanshoku", if closed { 2 } else { 1 }));
        }
        if starts
            .iter()
            .any(|&k| k % 9 == 0 && has(k + 3) && has(k + 6))
        {
            yaku.push(("ittsu", if closed { 2 } else { 1 }));
        }
    }
}

/// 三色同刻, 対々和, 三暗刻, 三槓子 and 小三元.
fn triplet_yaku(
    pair: i16,
    trips: &[Set],
    kinds: &[u8],
    any_run: bool,
    yaku: &mut Vec<(&'static str, u32)>,
) {
    let mut distinct = kinds.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let has = |k: u8| distinct.contains(&k);
    if distinct.len() >= 3 && distinct.iter().any(|&k| k < 9 && has(k + 9) && has(k + 18)) {
        yaku.push(("sanshoku-doukou", 2));
    }
    if !any_run {
        yaku.push(("toitoi", 2));
    }
    if trips.iter().filter(|s| s.concealed).count() == 3 {
        yaku.push(("sanankou", 2));
    }
    if trips.iter().filter(|s| s.kan).count() == 3 {
        yaku.push(("sankantsu", 2));
    }
    if distinct.iter().filter(|&&k| dragon(k)).count() == 2 && pair >= 0 && dragon(pair as u8) {
        yaku.push(("shousangen", 2));
    }
}

/// The value of every reading and every place of the win tile; `None` when a reading
/// could be a yakuman.
fn valued_readings(h: &Hand, counts: &[u8; KINDS]) -> Option<Vec<Reading>> {
    let mut found = Vec::new();
    for (pair, concealed) in readings(counts) {
        let mut sets = concealed.clone();
        sets.extend_from_slice(&h.melds);
        let trips = sets.iter().filter(|s| !s.run);
        let mut trip_kinds: Vec<u8> = trips.clone().map(|s| s.kind).collect();
        trip_kinds.sort_unstable();
        trip_kinds.dedup();
        if trip_kinds.iter().filter(|&&k| dragon(k)).count() == 3
            || trip_kinds.iter().filter(|&&k| wind(k)).count() >= 3
            || trips.filter(|s| s.concealed).count() == 4
        {
            return None;
        }
        let mut waits: Vec<Wait> = concealed
            .iter()
            .enumerate()
            .filter(|(_, s)| {
                if s.run {
                    s.kind <= h.win && h.win <= s.kind + 2
                } else {
                    s.kind == h.win
                }
            })
            .map(|(i, _)| Wait::Set(i))
            .collect();
        if pair == i16::from(h.win) {
            waits.push(Wait::Pair);
        }
        for w in waits {
            if let Some(r) = value_reading(h, pair, &sets, w) {
                found.push(r);
            }
        }
    }
    if h.closed && h.melds.is_empty() && counts.iter().filter(|&&c| c == 2).count() == 7 {
        if let Some(r) = value_reading(h, -1, &[], Wait::SevenPairs) {
            found.push(r);
        }
    }
    Some(found)
}

/// (main, additional) payments of a hand of `base` (twin of `fast._payments`).
fn payments(base: i64, sit: &Situation) -> (i64, i64) {
    if !sit.tsumo() {
        return (up100(base * if sit.is_dealer() { 6 } else { 4 }), 0);
    }
    if sit.is_dealer() {
        return (up100(base * 2), up100(base * 2));
    }
    (up100(base * 2), up100(base))
}

/// Whether every tile of the win is a riichi tile (what `riichi.value` checks before
/// asking fast.py).
fn known(sit: &Situation) -> bool {
    let ok = |ts: &[u16]| ts.iter().all(|&t| t < NUM_TILES);
    ok(&sit.hand)
        && sit.win_tile < NUM_TILES
        && ok(&sit.dora_indicators)
        && (ok(&sit.ura_indicators) || !(sit.riichi || sit.double_riichi))
        && sit.melds.iter().all(|m| ok(&m.tiles))
}

/// The value of an ordinary hand (twin of `fast.fast_value`), `None` where fast.py
/// declines. A tile id past [`NUM_TILES`] or a wind past north (where fast.py fails;
/// `riichi.value` asks it about no unknown tile) declines too.
pub fn value(sit: &Situation, rules: &Rules) -> Option<Value> {
    if sit.seat_wind > 3 || sit.round_wind > 3 || !known(sit) {
        return None; // fast.py fails on such a win (an IndexError), this declines
    }
    if sit.tenhou || sit.chiihou {
        return None;
    }
    let melds = meld_sets(&sit.melds)?;
    if melds.iter().filter(|m| m.kan).count() == 4 {
        return None;
    }
    let mut counts = [0u8; KINDS];
    let mut kinds: Vec<u8> = sit.hand.iter().map(|&t| kind(t)).collect();
    for &k in &kinds {
        counts[usize::from(k)] += 1;
    }
    for m in &sit.melds {
        kinds.extend(m.tiles.iter().map(|&t| kind(t)));
    }
    if kinds.iter().all(|&k| terminal_or_honour(k)) || kinds.iter().all(|&k| green(k)) {
        return None;
    }
    let h = Hand::new(sit, rules, melds, kinds);
    if h.closed && !h.honours && h.suits == 1 {
        return None; // could be nine gates
    }
    let found = valued_readings(&h, &counts)?;
    let mut best: Option<(Reading, (i64, u32, u32))> = None;
    for r in found {
        let (main, additional) = payments(hand_value(r.1, r.0, rules).0, sit);
        let key = (main + 2 * additional, r.1, r.0);
        if best.as_ref().is_none_or(|b| key > b.1) {
            best = Some((r, key));
        }
    }
    let ((fu, han, yaku), _) = best?;
    let (base, limit) = hand_value(han, fu, rules);
    let (main, additional) = payments(base, sit);
    Some(Value {
        fu,
        han,
        yaku,
        limit,
        main,
        additional,
    })
}

/// One reading of a winning hand and the ordinary yaku it scores (twin of
/// `fast.YakuReading`): the concealed sets first (in kind order), then the called and
/// kanned sets in the order of `Situation.melds`, each `(first kind, run, concealed,
/// kan)`; `concealed_sets` says how many come first; `pair` is the pair's kind (-1 for
/// seven pairs); `yaku` leaves dora out. (Asked for by native-checks-b, for sakizuke.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YakuReading {
    pub pair: i16,
    pub sets: Vec<(u8, bool, bool, bool)>,
    pub concealed_sets: usize,
    pub yaku: Vec<&'static str>,
}

fn reading_of(pair: i16, sets: &[Set], concealed_sets: usize, r: &Reading) -> YakuReading {
    YakuReading {
        pair,
        sets: sets
            .iter()
            .map(|s| (s.kind, s.run, s.concealed, s.kan))
            .collect(),
        concealed_sets,
        yaku: r
            .2
            .iter()
            .map(|y| y.0)
            .filter(|n| !matches!(*n, "dora" | "aka-dora" | "ura-dora"))
            .collect(),
    }
}

/// Every reading of the hand that scores at least one ordinary yaku (twin of
/// `fast.yaku_readings`): no yakuman, no refusal of possible yakuman. Empty for a set
/// fast.py cannot read or a tile of no riichi kind (where fast.py gives nothing or
/// fails: an unknown indicator, win tile or called tile).
pub fn yaku_readings(sit: &Situation, rules: &Rules) -> Vec<YakuReading> {
    let Some(melds) = meld_sets(&sit.melds) else {
        return Vec::new();
    };
    if sit.seat_wind > 3 || sit.round_wind > 3 || !known(sit) {
        return Vec::new();
    }
    let counts = counts_of(sit);
    let h = Hand::new(sit, rules, melds, kinds_of(sit));
    let mut out = Vec::new();
    for (pair, concealed) in readings(&counts) {
        let mut sets = concealed.clone();
        sets.extend_from_slice(&h.melds);
        for w in places(&h, pair, &concealed) {
            if let Some(r) = value_reading(&h, pair, &sets, w) {
                out.push(reading_of(pair, &sets, concealed.len(), &r));
            }
        }
    }
    if h.closed && h.melds.is_empty() && counts.iter().filter(|&&c| c == 2).count() == 7 {
        if let Some(r) = value_reading(&h, -1, &[], Wait::SevenPairs) {
            out.push(reading_of(-1, &[], 0, &r));
        }
    }
    out
}

fn counts_of(sit: &Situation) -> [u8; KINDS] {
    let mut counts = [0u8; KINDS];
    for &t in &sit.hand {
        counts[usize::from(kind(t))] += 1;
    }
    counts
}

fn kinds_of(sit: &Situation) -> Vec<u8> {
    let mut kinds: Vec<u8> = sit.hand.iter().map(|&t| kind(t)).collect();
    for m in &sit.melds {
        kinds.extend(m.tiles.iter().map(|&t| kind(t)));
    }
    kinds
}

/// Where the win tile may sit in one reading: each concealed set it completes, then the
/// pair.
fn places(h: &Hand, pair: i16, concealed: &[Set]) -> Vec<Wait> {
    let mut waits: Vec<Wait> = concealed
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            if s.run {
                s.kind <= h.win && h.win <= s.kind + 2
            } else {
                s.kind == h.win
            }
        })
        .map(|(i, _)| Wait::Set(i))
        .collect();
    if pair == i16::from(h.win) {
        waits.push(Wait::Pair);
    }
    waits
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tile ids of an mpsz string ("123m456p789s11z"), copies taken in order.
    fn ids(text: &str) -> Vec<u16> {
        let mut used = [0u16; KINDS];
        let mut out = Vec::new();
        let mut digits = Vec::new();
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                digits.push(d as u16);
                continue;
            }
            let base = match ch {
                'm' => 0,
                'p' => 9,
                's' => 18,
                _ => 27,
            };
            for d in digits.drain(..) {
                let k = (base + d - 1) as usize;
                out.push(k as u16 * 4 + used[k]);
                used[k] += 1;
            }
        }
        out
    }

    fn sit(hand: &str, win: u16, tsumo: bool) -> Situation {
        Situation {
            winner: 1,
            from_player: if tsumo { 1 } else { 0 },
            seat_wind: 3,
            hand: ids(hand),
            win_tile: win,
            ..Situation::default()
        }
    }

    #[test]
    fn pinfu_tsumo_is_20_fu() {
        let s = sit("234m456p678s23455s", 19 * 4 + 1, true);
        let v = value(
            &s,
            &Rules {
                red_fives: false,
                ..Rules::default()
            },
        )
        .expect("valued");
        assert_eq!((v.fu, v.han), (20, 3), "{:?}", v.yaku);
        assert_eq!(
            v.yaku,
            vec![("pinfu", 1), ("menzen-tsumo", 1), ("tanyao", 1)]
        );
        assert_eq!((v.main, v.additional), (1300, 700));
    }

    #[test]
    fn kiriage_rounds_up_without_a_name() {
        let rules = Rules {
            kiriage: true,
            ..Rules::default()
        };
        assert_eq!(hand_value(4, 30, &rules), (2000, ""));
        assert_eq!(hand_value(4, 30, &Rules::default()), (1920, ""));
        assert_eq!(hand_value(4, 40, &Rules::default()), (2000, "mangan"));
        let none = Rules {
            kazoe: Kazoe::None,
            ..Rules::default()
        };
        assert_eq!(hand_value(26, 30, &none), (16000, "yakuman"));
    }

    #[test]
    fn possible_yakuman_are_declined() {
        // four concealed triplets, a closed one-suit hand, all honours
        assert!(value(&sit("111m222p333s44455z", 4 * 4, true), &Rules::default()).is_none());
        assert!(value(&sit("11123456789999m", 0, true), &Rules::default()).is_none());
        assert!(value(&sit("11122233344455z", 27 * 4, true), &Rules::default()).is_none());
    }

    #[test]
    fn seven_pairs_is_25_fu() {
        let s = sit("1133m2277p4488s66z", 8 * 4, false);
        let v = value(&s, &Rules::default()).expect("valued");
        assert_eq!((v.fu, v.han, v.main), (25, 2, 1600));
    }

    #[test]
    fn next_kind_wraps() {
        assert_eq!(next_kind(8, false), 0);
        assert_eq!(next_kind(0, true), 8);
        assert_eq!(next_kind(30, false), 27);
        assert_eq!(next_kind(33, false), 31);
    }
}

//! Shanten of a closed hand: the twin of `mjlog.hand.shape.shanten` with no called set.
//!
//! The standard shape is counted as the Python kernel counts it: each suit's splits into
//! sets and partial sets (with and without the pair) are found once per suit pattern and
//! kept as their Pareto frontier, the suits are combined with the partial sets capped at
//! what the remaining sets can use, and the shanten is `2 * (4 - sets) - partials - pair`.
//! Seven pairs and thirteen orphans are counted beside it. A 13-tile hand counted ready
//! whose every winning kind is held four times has no winning tile: it is 1, not 0.

use std::cell::RefCell;
use std::collections::HashMap;

/// Kinds of tiles (34: three suits of nine, seven honours).
pub const KINDS: usize = 34;
const SETS: i32 = 4;
const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
/// [`ORPHANS`] as a mask of kinds.
const ORPHAN_MASK: u64 = 0x3_FC06_0301;

/// A suit's splits: Pareto-maximal `(sets, partials)` without and with the pair.
type Frontier = (Vec<(i32, i32)>, Vec<(i32, i32)>);

/// Counts shanten, remembering each suit pattern's splits.
#[derive(Default)]
pub struct Shanten {
    index: HashMap<(u64, bool), usize>,
    frontiers: Vec<Frontier>,
}

/// The most partial sets found for each number of sets (0..=4) and pair (0, 1); -1: none.
type States = [[i32; 2]; 5];

impl Shanten {
    /// The shanten of a closed hand of 13 or 14 tiles given as counts by kind (each 0..4).
    pub fn closed(&mut self, counts: &[u8; KINDS]) -> i32 {
        let mut best = self.standard(counts);
        if best > -1 {
            best = best.min(seven_pairs(counts)).min(thirteen_orphans(counts));
        }
        let tiles: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        if best == 0 && tiles % 3 == 1 && !self.has_wait(counts) {
            return 1;
        }
        best
    }

    /// Shanten of the standard shape (four sets and a pair).
    fn standard(&mut self, counts: &[u8; KINDS]) -> i32 {
        let mut states: States = [[-1; 2]; 5];
        states[0][0] = 0;
        for (lo, hi, honours) in [
            (0, 9, false),
            (9, 18, false),
            (18, 27, false),
            (27, 34, true),
        ] {
            let at = self.frontier(&counts[lo..hi], honours);
            let (no_pair, with_pair) = &self.frontiers[at];
            let mut next: States = [[-1; 2]; 5];
            for (m, row) in states.iter().enumerate() {
                for (p, &t) in row.iter().enumerate() {
                    if t < 0 {
                        continue;
                    }
                    let mut put = |dm: i32, dt: i32, pair: usize| {
                        let sets = m as i32 + dm;
                        if sets > SETS {
                            return;
                        }
                        let v = (t + dt).min(SETS - sets);
                        let slot = &mut next[sets as usize][pair];
                        if *slot < v {
                            *slot = v;
                        }
                    };
                    for &(dm, dt) in no_pair {
                        put(dm, dt, p);
                    }
                    if p == 0 {
                        for &(dm, dt) in with_pair {
                            put(dm, dt, 1);
                        }
                    }
                }
            }
            states = next;
        }
        let mut best = 8;
        for (m, row) in states.iter().enumerate() {
            for (p, &t) in row.iter().enumerate() {
                if t >= 0 {
                    best = best.min(2 * (SETS - m as i32) - t - p as i32);
                }
            }
        }
        best
    }

    /// The index of a suit pattern's frontier, found once.
    fn frontier(&mut self, suit: &[u8], honours: bool) -> usize {
        let key = suit.iter().fold(0u64, |k, &c| k * 5 + u64::from(c));
        if let Some(&at) = self.index.get(&(key, honours)) {
            return at;
        }
        let mut found: [Vec<(i32, i32)>; 2] = [Vec::new(), Vec::new()];
        let mut c = suit.to_vec();
        splits(&mut c, 0, honours, (0, 0, 0), &mut found);
        self.frontiers.push((pareto(&found[0]), pareto(&found[1])));
        self.index.insert((key, honours), self.frontiers.len() - 1);
        self.frontiers.len() - 1
    }

    /// Whether a ready 13-tile hand has a winning kind it does not hold four of.
    fn has_wait(&mut self, counts: &[u8; KINDS]) -> bool {
        let mut c = *counts;
        (0..KINDS).any(|k| {
            if c[k] >= 4 {
                return false;
            }
            c[k] += 1;
            let done =
                self.standard(&c) == -1 || seven_pairs(&c) == -1 || thirteen_orphans(&c) == -1;
            c[k] -= 1;
            done
        })
    }
}

/// Every split of one suit from kind `i` on: `(sets, partials, pair)` so far.
fn splits(
    c: &mut [u8],
    i: usize,
    honours: bool,
    (m, t, p): (i32, i32, usize),
    found: &mut [Vec<(i32, i32)>; 2],
) {
    let Some(i) = (i..c.len()).find(|&k| c[k] > 0) else {
        found[p].push((m, t));
        return;
    };
    let run = |c: &[u8], gap: usize| !honours && i + gap < c.len() && c[i + gap] > 0;
    if c[i] >= 3 {
        c[i] -= 3;
        splits(c, i, honours, (m + 1, t, p), found);
        c[i] += 3;
    }
    if run(c, 1) && run(c, 2) {
        take(c, &[i, i + 1, i + 2], |c| {
            splits(c, i, honours, (m + 1, t, p), found)
        });
    }
    if c[i] >= 2 {
        c[i] -= 2;
        if p == 0 {
            splits(c, i, honours, (m, t, 1), found);
        }
        splits(c, i, honours, (m, t + 1, p), found);
        c[i] += 2;
    }
    for gap in [1, 2] {
        if run(c, gap) {
            take(c, &[i, i + gap], |c| {
                splits(c, i, honours, (m, t + 1, p), found)
            });
        }
    }
    c[i] -= 1;
    splits(c, i, honours, (m, t, p), found);
    c[i] += 1;
}

fn take(c: &mut [u8], kinds: &[usize], then: impl FnOnce(&mut [u8])) {
    for &k in kinds {
        c[k] -= 1;
    }
    then(c);
    for &k in kinds {
        c[k] += 1;
    }
}

fn pareto(all: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = all
        .iter()
        .copied()
        .filter(|&(m, t)| {
            !all.iter()
                .any(|&(m2, t2)| m2 >= m && t2 >= t && (m2, t2) != (m, t))
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The most suit patterns kept before the cache starts afresh (flat memory over any
/// archive; a few thousand patterns cover whole archives).
const MOST_PATTERNS: usize = 1 << 20;

thread_local! {
    static CACHE: RefCell<Shanten> = RefCell::new(Shanten::default());
}

/// [`Shanten::closed`] with this thread's cache of suit patterns, kept between calls.
pub fn closed(counts: &[u8; KINDS]) -> i32 {
    CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.frontiers.len() > MOST_PATTERNS {
            *cache = Shanten::default();
        }
        cache.closed(counts)
    })
}

/// Shanten towards seven distinct pairs.
pub fn seven_pairs(c: &[u8; KINDS]) -> i32 {
    let distinct = c.iter().filter(|&&n| n > 0).count() as i32;
    let pairs = c.iter().filter(|&&n| n >= 2).count() as i32;
    6 - pairs + (7 - distinct).max(0)
}

/// Shanten towards thirteen orphans.
pub fn thirteen_orphans(c: &[u8; KINDS]) -> i32 {
    let held = ORPHANS.iter().filter(|&&k| c[k] > 0).count() as i32;
    let paired = ORPHANS.iter().any(|&k| c[k] >= 2);
    13 - held - i32::from(paired)
}

/// Kinds held two or more times.
pub fn pairs(c: &[u8; KINDS]) -> u8 {
    c.iter().filter(|&&n| n >= 2).count() as u8
}

/// A suit's frontier kept inline (no allocation): its Pareto-maximal `(sets, partials)`
/// without and with the pair. Frontier points have distinct numbers of sets, and a suit of
/// at most 18 tiles makes at most 6 sets: 8 places are enough.
#[derive(Clone, Copy, Default)]
struct Front {
    points: [[(i8, i8); 8]; 2],
    lens: [u8; 2],
}

impl Front {
    fn of(no_pair: &[(i32, i32)], with_pair: &[(i32, i32)]) -> Self {
        let mut f = Front::default();
        for (side, points) in [no_pair, with_pair].into_iter().enumerate() {
            let kept = points.len().min(8);
            for (slot, &(m, t)) in f.points[side].iter_mut().zip(&points[..kept]) {
                *slot = (m as i8, t as i8);
            }
            f.lens[side] = kept as u8;
        }
        f
    }

    fn no_pair(&self) -> &[(i8, i8)] {
        &self.points[0][..usize::from(self.lens[0])]
    }

    fn with_pair(&self) -> &[(i8, i8)] {
        &self.points[1][..usize::from(self.lens[1])]
    }
}

/// One discard of a hand of 3n + 2 tiles: the kind thrown, the shanten of the hand it
/// leaves, the kinds whose draw would lower that shanten (a 34-bit mask) and the copies of
/// those kinds the player cannot see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The kind discarded.
    pub kind: u8,
    /// Shanten of the hand left (0 ready).
    pub shanten: i32,
    /// The kinds (bit `k` for kind `k`) whose draw lowers the shanten.
    pub ukeire: u64,
    /// Copies of those kinds the player cannot see.
    pub count: u32,
}

/// States while suits are combined: the most partial sets for each number of sets (0..=5)
/// and pair (0, 1); -1 for none.
type Combined = [[i32; 2]; 6];

/// Ukeire counts (twin of `mjlog.decisions.efficiency.discard_options` and
/// `mjlog.decisions.efficiency.hand_ukeire`): the standard shape over `sets` sets and a pair,
/// seven pairs and thirteen orphans beside it for a closed riichi hand (four sets). Each
/// suit pattern's splits are found once and indexed by the pattern's counts in base 5; which
/// draws into a suit lower a hand is remembered beside the other suits it was counted with
/// ([`Memo`], 1 MB), and the special shapes are counted only where a draw can take them
/// below the shanten to beat.
#[derive(Default)]
pub struct Ukeire {
    index: Index,
    frontiers: Vec<Front>,
    draws: Memo,
}

/// The draws into one suit that lower a hand's standard shanten, remembered by what
/// decides them: the suit's pattern, the other suits combined, the shanten to beat and the
/// sets (see [`Ukeire::suit_lowers`]). A direct-mapped cache of `(key + 1, kinds)`: a key
/// takes the slot of its hash, replacing what was there. Small enough to stay in the
/// processor's cache (the keys a game meets again are mostly met again soon: the same
/// suits beside another discard, the same hand a turn later).
struct Memo {
    slots: Vec<(u64, u16)>,
}

/// log2 of [`Memo`]'s slots (16 bytes each).
const MEMO_BITS: u32 = 16;

impl Default for Memo {
    fn default() -> Self {
        Memo {
            slots: vec![(0, 0); 1 << MEMO_BITS],
        }
    }
}

impl Memo {
    fn slot(key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - MEMO_BITS)) as usize
    }

    fn get(&self, key: u64) -> Option<u16> {
        let (k, v) = self.slots[Self::slot(key)];
        (k == key + 1).then_some(v)
    }

    fn insert(&mut self, key: u64, kinds: u16) {
        self.slots[Self::slot(key)] = (key + 1, kinds);
    }
}

/// A [`Memo`] key: a suit pattern (23 bits: 22 of counts and the honours flag), the other
/// suits combined (12 places of -1..=5 in base 7, 34 bits), the shanten to beat (-1..=14,
/// 4 bits) and the sets (1..=5, 3 bits): 64 bits, none shared, so no two keys are equal.
fn draws_key(pattern: u32, rest: &Combined, base: i32, sets: i32) -> u64 {
    let mut packed = 0u64;
    for row in rest {
        for &t in row {
            packed = packed * 7 + (t + 1) as u64;
        }
    }
    u64::from(pattern) | packed << 23 | ((base + 1) as u64 & 15) << 57 | (sets as u64 & 7) << 61
}

/// An open-addressing index from a suit pattern's key (its counts in base 5, the honours
/// flagged by bit 22) to its frontier's place: compact, so that the patterns a game meets
/// stay in the processor's caches (a table of every pattern would spread them over 8 MB).
#[derive(Default)]
struct Index {
    /// `(key + 1, place)`; 0 marks a free slot.
    slots: Vec<(u32, u32)>,
    bits: u32,
    len: usize,
}

const HONOUR_FLAG: u32 = 1 << 22;

impl Index {
    fn start(&self, key: u32) -> usize {
        ((u64::from(key).wrapping_mul(0x9E37_79B9_7F4A_7C15)) >> (64 - self.bits)) as usize
    }

    fn get(&self, key: u32) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.start(key);
        loop {
            let (k, v) = self.slots[i];
            if k == 0 {
                return None;
            }
            if k == key + 1 {
                return Some(v as usize);
            }
            i = (i + 1) & mask;
        }
    }

    fn insert(&mut self, key: u32, place: usize) {
        if (self.len + 1) * 2 > self.slots.len() {
            let old = std::mem::take(&mut self.slots);
            self.bits = if old.is_empty() { 12 } else { self.bits + 1 };
            self.slots = vec![(0, 0); 1 << self.bits];
            self.len = 0;
            for (k, v) in old {
                if k != 0 {
                    self.insert(k - 1, v as usize);
                }
            }
        }
        let mask = self.slots.len() - 1;
        let mut i = self.start(key);
        while self.slots[i].0 != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = (key + 1, place as u32);
        self.len += 1;
    }
}

fn pattern_key(counts: &[u8], suit: usize) -> u32 {
    let key = counts.iter().fold(0u32, |k, &c| k * 5 + u32::from(c));
    if suit == 3 {
        key | HONOUR_FLAG
    } else {
        key
    }
}
const SUIT_RANGES: [(usize, usize); 4] = [(0, 9), (9, 18), (18, 27), (27, 34)];

fn suit_of(kind: usize) -> usize {
    if kind >= 27 {
        3
    } else {
        kind / 9
    }
}

impl Ukeire {
    /// The frontier of one suit's counts (`suit` 3: the honours), found once.
    fn frontier(&mut self, counts: &[u8], suit: usize) -> usize {
        let key = pattern_key(counts, suit);
        if let Some(at) = self.index.get(key) {
            return at;
        }
        let made = self.split_first(counts, suit);
        self.frontiers.push(made);
        let at = self.frontiers.len() - 1;
        self.index.insert(key, at);
        at
    }

    /// The frontier of a suit's counts, from the frontiers of what is left after each way
    /// of taking its first tile (a triplet, a run, the pair, a partial set, or loose): the
    /// splits of [`splits`], each pattern's counted once.
    fn split_first(&mut self, counts: &[u8], suit: usize) -> Front {
        let honours = suit == 3;
        let Some(i) = counts.iter().position(|&n| n > 0) else {
            return Front::of(&[(0, 0)], &[]);
        };
        let mut no_pair = Vec::new();
        let mut with_pair = Vec::new();
        let mut c = [0u8; 9];
        let len = counts.len();
        let mut take = |this: &mut Self,
                        out: &mut [Vec<(i32, i32)>; 2],
                        kinds: &[usize],
                        dm: i32,
                        dt: i32,
                        pair: bool| {
            c[..len].copy_from_slice(counts);
            for &k in kinds {
                c[k] -= 1;
            }
            let at = this.frontier(&c[..len], suit);
            let f = this.frontiers[at];
            let shift = |&(m, t): &(i8, i8)| (i32::from(m) + dm, i32::from(t) + dt);
            if pair {
                out[1].extend(f.no_pair().iter().map(shift));
            } else {
                out[0].extend(f.no_pair().iter().map(shift));
                out[1].extend(f.with_pair().iter().map(shift));
            }
        };
        let mut out: [Vec<(i32, i32)>; 2] = [Vec::new(), Vec::new()];
        let near = |gap: usize| !honours && i + gap < len && counts[i + gap] > 0;
        if counts[i] >= 3 {
            take(self, &mut out, &[i, i, i], 1, 0, false);
        }
        if near(1) && near(2) {
            take(self, &mut out, &[i, i + 1, i + 2], 1, 0, false);
        }
        if counts[i] >= 2 {
            take(self, &mut out, &[i, i], 0, 0, true);
            take(self, &mut out, &[i, i], 0, 1, false);
        }
        for gap in [1, 2] {
            if near(gap) {
                take(self, &mut out, &[i, i + gap], 0, 1, false);
            }
        }
        take(self, &mut out, &[i], 0, 0, false);
        no_pair.append(&mut out[0]);
        with_pair.append(&mut out[1]);
        Front::of(&pareto(&no_pair), &pareto(&with_pair))
    }

    /// `states` with one more suit's splits (frontier `at`) taken in.
    fn add(&self, states: &Combined, at: usize, sets: i32) -> Combined {
        let f = &self.frontiers[at];
        let (no_pair, with_pair) = (f.no_pair(), f.with_pair());
        let mut next: Combined = [[-1; 2]; 6];
        for (m, row) in states.iter().enumerate() {
            for (p, &t) in row.iter().enumerate() {
                if t < 0 {
                    continue;
                }
                let mut put = |dm: i32, dt: i32, pair: usize| {
                    let s = m as i32 + dm;
                    if s > sets {
                        return;
                    }
                    let v = (t + dt).min(sets - s);
                    let slot = &mut next[s as usize][pair];
                    if *slot < v {
                        *slot = v;
                    }
                };
                for &(dm, dt) in no_pair {
                    let (dm, dt) = (i32::from(dm), i32::from(dt));
                    put(dm, dt, p);
                }
                if p == 0 {
                    for &(dm, dt) in with_pair {
                        let (dm, dt) = (i32::from(dm), i32::from(dt));
                        put(dm, dt, 1);
                    }
                }
            }
        }
        next
    }

    /// Whether `states` with a last suit (frontier `at`) taken in has a standard shanten
    /// below `base` ([`Ukeire::fewest`] that stops at the first such split).
    fn below(&self, live: &Live, at: usize, sets: i32, base: i32) -> bool {
        let f = &self.frontiers[at];
        let (no_pair, with_pair) = (f.no_pair(), f.with_pair());
        for &(m, p, t) in &live.0[..live.1] {
            for &(dm, dt) in no_pair {
                let (dm, dt) = (i32::from(dm), i32::from(dt));
                let s = m + dm;
                if s <= sets && 2 * (sets - s) - (t + dt).min(sets - s) - p < base {
                    return true;
                }
            }
            if p == 0 {
                for &(dm, dt) in with_pair {
                    let (dm, dt) = (i32::from(dm), i32::from(dt));
                    let s = m + dm;
                    if s <= sets && 2 * (sets - s) - (t + dt).min(sets - s) - 1 < base {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The standard shanten of `states` with a last suit (frontier `at`) taken in.
    fn fewest(&self, states: &Combined, at: usize, sets: i32) -> i32 {
        let f = &self.frontiers[at];
        let (no_pair, with_pair) = (f.no_pair(), f.with_pair());
        let mut low = 99;
        for (m, row) in states.iter().enumerate() {
            for (p, &t) in row.iter().enumerate() {
                if t < 0 {
                    continue;
                }
                for &(dm, dt) in no_pair {
                    let (dm, dt) = (i32::from(dm), i32::from(dt));
                    let s = m as i32 + dm;
                    if s <= sets {
                        low = low.min(2 * (sets - s) - (t + dt).min(sets - s) - p as i32);
                    }
                }
                if p == 0 {
                    for &(dm, dt) in with_pair {
                        let (dm, dt) = (i32::from(dm), i32::from(dt));
                        let s = m as i32 + dm;
                        if s <= sets {
                            low = low.min(2 * (sets - s) - (t + dt).min(sets - s) - 1);
                        }
                    }
                }
            }
        }
        low
    }

    /// Each suit's frontier of `c`.
    fn suits(&mut self, c: &[u8; KINDS]) -> [usize; 4] {
        let mut f = [0; 4];
        for (s, &(lo, hi)) in SUIT_RANGES.iter().enumerate() {
            f[s] = self.frontier(&c[lo..hi], s);
        }
        f
    }

    /// The frontier of suit `s` of `c` with one more tile of `kind`, whose suit's key
    /// without it is `key` (found by key, the counts built only for a pattern not met).
    fn with_tile_keyed(&mut self, c: &[u8; KINDS], s: usize, kind: usize, key: usize) -> usize {
        let hi = SUIT_RANGES[s].1;
        let key = key + POW5[hi - 1 - kind];
        let key = if s == 3 {
            key as u32 | HONOUR_FLAG
        } else {
            key as u32
        };
        match self.index.get(key) {
            Some(at) => at,
            None => self.with_tile(c, s, kind),
        }
    }

    /// The frontier of suit `s` of `c` with one more tile of `kind` (in that suit).
    fn with_tile(&mut self, c: &[u8; KINDS], s: usize, kind: usize) -> usize {
        let (lo, hi) = SUIT_RANGES[s];
        let mut suit = [0u8; 9];
        suit[..hi - lo].copy_from_slice(&c[lo..hi]);
        suit[kind - lo] += 1;
        self.frontier(&suit[..hi - lo], s)
    }

    /// Shanten, ukeire mask and unseen count of a hand of 3n + 1 tiles with `melds` calls.
    pub fn hand(
        &mut self,
        h: &[u8; KINDS],
        melds: i32,
        sets: i32,
        here: u64,
        unseen: &[u8; KINDS],
    ) -> (i32, u64, u32) {
        let f = self.suits(h);
        let rest = self.rests(&f, melds, sets);
        let base = self.fewest(&rest[3], f[3], sets);
        let ctx = Draws {
            rest: &rest,
            sets,
            special: melds == 0 && sets == 4,
        };
        self.lowering(h, &ctx, base, here, unseen)
    }

    /// The shanten of `h` (3n + 1 tiles, standard shape shanten `base_std`), the kinds
    /// whose draw lowers it (masked by `here`) and their unseen copies. Drawing a kind
    /// with no tile of its suit within two in `h` leaves the standard shape as it was
    /// (the tile is loose in every split), so only the special shapes are counted for it.
    fn lowering(
        &mut self,
        h: &[u8; KINDS],
        ctx: &Draws<'_>,
        base_std: i32,
        here: u64,
        unseen: &[u8; KINDS],
    ) -> (i32, u64, u32) {
        let mut base = base_std;
        let mut spec = [99; KINDS];
        let mut specials = false;
        if ctx.special {
            let least = seven_pairs(h).min(thirteen_orphans(h));
            base = base.min(least);
            // a draw lowers either special shape by one at most: counted only where that
            // can go below the shanten to beat (`base`, or 1 for a hand ready on nothing)
            specials = least <= base.max(1);
            if specials {
                specials_after_draws(h, &mut spec);
            }
        }
        let spec = specials.then_some(&spec);
        let near = near_mask(h);
        let mut lower = self.lowers(h, ctx, spec, near, base);
        if base == 0 && lower == 0 {
            base = 1; // ready on nothing but kinds it holds four of
            lower = self.lowers(h, ctx, spec, near, base);
            if base_std < base {
                // a loose tile leaves the standard shape at `base_std`: below 1 too
                lower |= !near & held_below_four(h);
            }
        }
        let mask = lower & here;
        let mut count = 0;
        let mut left = mask;
        while left != 0 {
            count += u32::from(unseen[left.trailing_zeros() as usize]);
            left &= left - 1;
        }
        (base, mask, count)
    }

    /// The kinds held fewer than four times whose draw takes `h` below `base`.
    fn lowers(
        &mut self,
        h: &[u8; KINDS],
        ctx: &Draws<'_>,
        spec: Option<&[i32; KINDS]>,
        near: u64,
        base: i32,
    ) -> u64 {
        let mut lower = 0u64;
        for (b, &(lo, _)) in SUIT_RANGES.iter().enumerate() {
            lower |= u64::from(self.suit_lowers(h, ctx, b, near, base)) << lo;
        }
        if let Some(spec) = spec {
            for k in 0..KINDS {
                if h[k] < 4 && spec[k] < base {
                    lower |= 1 << k;
                }
            }
        }
        lower
    }

    /// The kinds of suit `b` (bit 0 its first) held fewer than four times whose draw takes
    /// the standard shanten of `h` below `base`. What decides them (the suit's pattern,
    /// the other suits combined, `base`, the sets) is the [`Memo`]'s key: a pattern met
    /// again beside the same rest is looked up, not counted. A draw with no tile of its
    /// suit within two (`near`) leaves the standard shape as it was.
    fn suit_lowers(
        &mut self,
        h: &[u8; KINDS],
        ctx: &Draws<'_>,
        b: usize,
        near: u64,
        base: i32,
    ) -> u16 {
        let (lo, hi) = SUIT_RANGES[b];
        let pattern = pattern_key(&h[lo..hi], b);
        let key = draws_key(pattern, &ctx.rest[b], base, ctx.sets);
        if let Some(kinds) = self.draws.get(key) {
            return kinds;
        }
        let live = live_of(&ctx.rest[b]);
        let plain = (pattern & !HONOUR_FLAG) as usize;
        let mut kinds = 0u16;
        for k in lo..hi {
            if h[k] < 4 && near >> k & 1 == 1 {
                let at = self.with_tile_keyed(h, b, k, plain);
                if self.below(&live, at, ctx.sets, base) {
                    kinds |= 1 << (k - lo);
                }
            }
        }
        self.draws.insert(key, kinds);
        kinds
    }

    /// For each suit, the other suits combined from the start state of `melds` sets.
    fn rests(&self, f: &[usize; 4], melds: i32, sets: i32) -> [Combined; 4] {
        let mut start: Combined = [[-1; 2]; 6];
        start[melds as usize][0] = 0;
        let mut out = [start; 4];
        for (b, slot) in out.iter_mut().enumerate() {
            for (s, &at) in f.iter().enumerate() {
                if s != b {
                    *slot = self.add(slot, at, sets);
                }
            }
        }
        out
    }

    /// Every discard of a hand of 3n + 2 tiles (`c`, with `melds` calls), one per kind
    /// held, most accepting first (least shanten, then most unseen copies, then kind
    /// order): see [`Choice`]. `here` has bit `k` for the kinds the table
    /// holds; `unseen` the copies of each kind the player cannot see.
    pub fn options(
        &mut self,
        c: &[u8; KINDS],
        melds: i32,
        sets: i32,
        here: u64,
        unseen: &[u8; KINDS],
    ) -> Vec<Choice> {
        let special = melds == 0 && sets == 4;
        let f = self.suits(c);
        let mut start: Combined = [[-1; 2]; 6];
        start[melds as usize][0] = 0;
        // for each suit a holding a tile (a discard from it): pairs[a][b], the suits other
        // than a and b combined (a != b), and others[a], the suits other than a combined
        let mut pairs = [[start; 4]; 4];
        let mut others = [start; 4];
        for (a, &(lo, hi)) in SUIT_RANGES.iter().enumerate() {
            if c[lo..hi].iter().all(|&n| n == 0) {
                continue;
            }
            for b in (0..4).filter(|&b| b != a) {
                for (s, &at) in f.iter().enumerate() {
                    if s != a && s != b {
                        pairs[a][b] = self.add(&pairs[a][b], at, sets);
                    }
                }
            }
            let next = (a + 1) % 4;
            others[a] = self.add(&pairs[a][next], f[next], sets);
        }
        let mut out = Vec::with_capacity(KINDS);
        for d in 0..KINDS {
            if c[d] == 0 {
                continue;
            }
            let a = suit_of(d);
            let mut h = *c;
            h[d] -= 1;
            let (lo, hi) = SUIT_RANGES[a];
            let fa = self.frontier(&h[lo..hi], a);
            let mut rest = [start; 4];
            for (b, slot) in rest.iter_mut().enumerate() {
                *slot = if b == a {
                    others[a]
                } else {
                    self.add(&pairs[a][b], fa, sets)
                };
            }
            let base = self.fewest(&rest[a], fa, sets);
            let ctx = Draws {
                rest: &rest,
                sets,
                special,
            };
            let (shanten, ukeire, count) = self.lowering(&h, &ctx, base, here, unseen);
            out.push(Choice {
                kind: d as u8,
                shanten,
                ukeire,
                count,
            });
        }
        out.sort_by_key(|o| (o.shanten, std::cmp::Reverse(o.count), o.kind));
        out
    }
}

/// Seven pairs and thirteen orphans after each draw of `h`, where lower than `out[k]`.
fn specials_after_draws(h: &[u8; KINDS], out: &mut [i32; KINDS]) {
    let distinct = h.iter().filter(|&&n| n > 0).count() as i32;
    let pairs = h.iter().filter(|&&n| n >= 2).count() as i32;
    let held = ORPHANS.iter().filter(|&&k| h[k] > 0).count() as i32;
    let paired = ORPHANS.iter().any(|&k| h[k] >= 2);
    for k in 0..KINDS {
        if h[k] >= 4 {
            continue;
        }
        let (d, p) = match h[k] {
            0 => (distinct + 1, pairs),
            1 => (distinct, pairs + 1),
            _ => (distinct, pairs),
        };
        let sp = 6 - p + (7 - d).max(0);
        let orphan = ORPHAN_MASK >> k & 1 == 1;
        let (o_held, o_paired) = if orphan {
            (held + i32::from(h[k] == 0), paired || h[k] >= 1)
        } else {
            (held, paired)
        };
        let ko = 13 - o_held - i32::from(o_paired);
        out[k] = out[k].min(sp).min(ko);
    }
}

/// What a hand's draws are counted against: each suit's other suits combined, the sets
/// and whether the special shapes are counted.
struct Draws<'a> {
    rest: &'a [Combined; 4],
    sets: i32,
    special: bool,
}

/// The live states of a [`Combined`] as `(sets, pair, partials)`, and how many.
type Live = ([(i32, i32, i32); 12], usize);

fn live_of(states: &Combined) -> Live {
    let mut out = ([(0, 0, 0); 12], 0);
    for (m, row) in states.iter().enumerate() {
        for (p, &t) in row.iter().enumerate() {
            if t >= 0 {
                out.0[out.1] = (m as i32, p as i32, t);
                out.1 += 1;
            }
        }
    }
    out
}

/// `POW5[j]` is 5^j: a suit's key holds its last kind's count at 5^0.
const POW5: [usize; 9] = [1, 5, 25, 125, 625, 3_125, 15_625, 78_125, 390_625];

/// The kinds (a mask) `h` holds fewer than four of.
fn held_below_four(h: &[u8; KINDS]) -> u64 {
    (0..KINDS).filter(|&k| h[k] < 4).fold(0, |m, k| m | 1 << k)
}

/// The kinds (a mask) within two of a tile held in their suit, or held (honours).
fn near_mask(h: &[u8; KINDS]) -> u64 {
    let mut held = 0u64;
    for (k, &n) in h.iter().enumerate() {
        held |= u64::from(n > 0) << k;
    }
    let mut near = held & (0x7F << 27);
    for lo in [0, 9, 18] {
        let m = held >> lo & 0x1FF;
        near |= ((m | m << 1 | m << 2 | m >> 1 | m >> 2) & 0x1FF) << lo;
    }
    near
}

/// The most accepting discards of `options` (most accepting first, as [`Ukeire::options`]
/// gives them) that `forbidden` (a mask of kinds) allows, or of them all when it allows
/// none, and the loss of discarding `tile` against them: (shanten lost, unseen copies
/// lost), `None` when `tile` is not among the options. Twin of the observer's judging in
/// `mjlog.decisions.efficiency.py_discard_facts`.
pub fn judge(options: &[Choice], forbidden: u64, tile: u32) -> (Vec<u8>, Option<(i32, i64)>) {
    let allowed = |o: &&Choice| forbidden >> o.kind & 1 == 0;
    let pool: Vec<&Choice> = if options.iter().any(|o| allowed(&o)) {
        options.iter().filter(allowed).collect()
    } else {
        options.iter().collect()
    };
    let Some(top) = pool.first() else {
        return (Vec::new(), None);
    };
    let best = pool
        .iter()
        .filter(|o| o.shanten == top.shanten && o.count == top.count)
        .map(|o| o.kind)
        .collect();
    let loss = options.iter().find(|o| u32::from(o.kind) == tile).map(|o| {
        (
            o.shanten - top.shanten,
            i64::from(top.count) - i64::from(o.count),
        )
    });
    (best, loss)
}

thread_local! {
    static UKEIRE: RefCell<Ukeire> = RefCell::new(Ukeire::default());
}

/// [`Ukeire::options`] with this thread's tables (kept between calls; started afresh past
/// [`MOST_PATTERNS`] frontiers).
pub fn discard_options(
    c: &[u8; KINDS],
    melds: i32,
    sets: i32,
    here: u64,
    unseen: &[u8; KINDS],
) -> Vec<Choice> {
    UKEIRE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.frontiers.len() > MOST_PATTERNS {
            *cache = Ukeire::default();
        }
        cache.options(c, melds, sets, here, unseen)
    })
}

/// [`Ukeire::hand`] with this thread's tables.
pub fn hand_ukeire(
    h: &[u8; KINDS],
    melds: i32,
    sets: i32,
    here: u64,
    unseen: &[u8; KINDS],
) -> (i32, u64, u32) {
    UKEIRE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.frontiers.len() > MOST_PATTERNS {
            *cache = Ukeire::default();
        }
        cache.hand(h, melds, sets, here, unseen)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(kinds: &[usize]) -> [u8; KINDS] {
        let mut c = [0u8; KINDS];
        for &k in kinds {
            c[k] += 1;
        }
        c
    }

    #[test]
    fn complete_ready_and_far() {
        let mut s = Shanten::default();
        // 123m 456m 789m 123p 55p: complete
        assert_eq!(
            s.closed(&counts(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 13])),
            -1
        );
        // 123m 456m 789m 123p 5p: ready on 5p
        assert_eq!(
            s.closed(&counts(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13])),
            0
        );
        // thirteen orphans, ready on thirteen sides
        assert_eq!(s.closed(&counts(&ORPHANS)), 0);
        // 1111m 2345p … a ready hand waiting only on a kind held four times is 1
        let only_held = counts(&[0, 0, 0, 0, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
        assert!(s.closed(&only_held) >= 0);
    }

    #[test]
    fn ukeire_of_each_discard() {
        let mut u = Ukeire::default();
        let all = (1u64 << KINDS) - 1;
        let unseen = [4u8; KINDS];
        // 123456789m 123p 55p: throwing 1m leaves 23456789m 123p 55p, ready on 1m 4m 7m
        let hand = counts(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 13]);
        let options = u.options(&hand, 0, 4, all, &unseen);
        assert_eq!(options.len(), 13);
        let one = options.iter().find(|o| o.kind == 0).unwrap();
        assert_eq!((one.shanten, one.ukeire, one.count), (0, 0b100_1001, 12));
        // most accepting first
        assert!(options
            .windows(2)
            .all(|w| (w[0].shanten, -(w[0].count as i64)) <= (w[1].shanten, -(w[1].count as i64))));
        // the best of them: 23456789m 123p 55p ready on 1m 4m 7m (throwing 1m), unless
        // kuikae forbids 1m: then the best of the others, and 1m's loss is counted still
        let (best, loss) = judge(&options, 0, 0);
        assert!(best.contains(&0) && loss == Some((0, 0)));
        let (best, loss) = judge(&options, 1, 0);
        assert!(!best.contains(&0) && !best.is_empty());
        assert!(loss.is_some_and(|(sh, _)| sh <= 0));
        assert_eq!(judge(&options, 0, 20).1, None); // 3s: not in the hand
                                                    // 6666s with three calls: ready only on a fifth 6s, so 1, and any draw lowers it
        let (sh, mask, _) = u.hand(&counts(&[23, 23, 23, 23]), 3, 4, all, &unseen);
        assert_eq!((sh, mask), (1, all & !(1 << 23)));
    }
}

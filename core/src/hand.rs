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
}

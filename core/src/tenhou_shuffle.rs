//! Tenhou's wall shuffle, the twin of `mjlog/wall/tenhou_shuffle.py` (`TenhouShuffler`).
//!
//! MT19937 seeded by `init_by_array` on the seed's words; per round, 288 outputs hashed
//! in nine 128-byte blocks with SHA-512 give 144 words `rnd` (the early-2009 per-round
//! form takes the first 137 raw outputs instead); a Fisher-Yates pass shuffles the
//! table's tile ids, and two words give the dice. The Python module documents the seed
//! forms and where the tiles sit; this one only computes the wall.

use rand_mt::Mt;
use sha2::{Digest, Sha512};

/// One round's shuffled tile ids (`yama`) and dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wall {
    pub yama: Vec<u8>,
    pub dice: (u8, u8),
}

/// One game's generator: gives its rounds' walls in order.
pub struct Shuffler {
    mt: Mt,
    raw: bool,
}

/// Why a shuffler cannot be made or a wall dealt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShuffleError {
    EmptyKey,
    Players(u32),
}

impl std::fmt::Display for ShuffleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::EmptyKey => write!(f, "a seed needs at least one key word"),
            Self::Players(n) => write!(f, "a Tenhou wall is for 3 or 4 players, not {n}"),
        }
    }
}

impl Shuffler {
    /// A generator seeded with `init_by_array(words)`; `raw` for the early-2009 per-round
    /// form (no hashing). Refuses an empty key (no seed form has one).
    pub fn new(words: &[u32], raw: bool) -> Result<Self, ShuffleError> {
        if words.is_empty() {
            return Err(ShuffleError::EmptyKey);
        }
        Ok(Self {
            mt: Mt::new_with_key(words.iter().copied()),
            raw,
        })
    }

    /// The next round's wall for `players` (3 or 4); advances the generator by 288
    /// outputs (137 in the raw form).
    pub fn next_wall(&mut self, players: u32) -> Result<Wall, ShuffleError> {
        let mut yama: Vec<u8> = match players {
            4 => (0..136).collect(),
            3 => (0..136).filter(|t| !(4..32).contains(t)).collect(),
            n => return Err(ShuffleError::Players(n)),
        };
        let rnd = if self.raw {
            self.raw_words()
        } else {
            self.hashed_words()
        };
        let n = yama.len();
        for (i, &r) in rnd.iter().enumerate().take(n - 1) {
            yama.swap(i, i + (r as usize) % (n - i));
        }
        // the hashed forms take words 135 and 136 whatever the table; the raw form the
        // two after the swaps
        let d = if self.raw { n - 1 } else { 135 };
        let die = |w: u32| (w % 6 + 1) as u8;
        Ok(Wall {
            yama,
            dice: (die(rnd[d]), die(rnd[d + 1])),
        })
    }

    fn raw_words(&mut self) -> Vec<u32> {
        (0..137).map(|_| self.mt.next_u32()).collect()
    }

    fn hashed_words(&mut self) -> Vec<u32> {
        let mut src = [0u8; 1152];
        for chunk in src.chunks_exact_mut(4) {
            chunk.copy_from_slice(&self.mt.next_u32().to_le_bytes());
        }
        let mut rnd = Vec::with_capacity(144);
        for block in src.chunks_exact(128) {
            let digest = Sha512::digest(block);
            rnd.extend(
                digest
                    .chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])),
            );
        }
        rnd
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_permutation(yama: &[u8], players: u32) -> bool {
        let mut sorted = yama.to_vec();
        sorted.sort_unstable();
        let expected: Vec<u8> = if players == 4 {
            (0..136).collect()
        } else {
            (0..136).filter(|t| !(4..32).contains(t)).collect()
        };
        sorted == expected
    }

    #[test]
    fn every_wall_is_a_permutation_of_the_tables_tiles_with_dice_of_six_faces() {
        for raw in [false, true] {
            let mut s = Shuffler::new(&[1, 2, 3, 0xFFFF_FFFF], raw).unwrap();
            for players in [4, 3, 4, 3] {
                let w = s.next_wall(players).unwrap();
                assert!(is_permutation(&w.yama, players));
                assert!((1..=6).contains(&w.dice.0) && (1..=6).contains(&w.dice.1));
            }
        }
    }

    #[test]
    fn successive_rounds_differ_and_the_same_seed_repeats() {
        let mut a = Shuffler::new(&[7, 0], false).unwrap();
        let mut b = Shuffler::new(&[7, 0], false).unwrap();
        let (a1, a2) = (a.next_wall(4).unwrap(), a.next_wall(4).unwrap());
        assert_ne!(a1, a2);
        assert_eq!(a1, b.next_wall(4).unwrap());
        assert_eq!(a2, b.next_wall(4).unwrap());
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert_eq!(
            Shuffler::new(&[], false).err(),
            Some(ShuffleError::EmptyKey)
        );
        let mut s = Shuffler::new(&[1], false).unwrap();
        assert_eq!(s.next_wall(5).err(), Some(ShuffleError::Players(5)));
        assert_eq!(s.next_wall(0).err(), Some(ShuffleError::Players(0)));
    }
}

//! The fairness report's samples straight from a Tenhou mjlog XML game: the twin of
//! `mjlog.fairness.sample.sample_game` on the game `mjlog.formats.tenhou_xml.read` gives.
//!
//! It takes only games `tenhou_facts::read` accepts (the records the Python reader reads
//! without a diagnostic, in the subset both read alike), with a seed of the 2009-on forms
//! whose every round is proven: each round's dealt hands, draws, replacement draws, dora
//! and ura indicators are its wall's. Anything else (a mismatch, an element between a
//! round's deal and the dealer's first draw, a riichi winner's meld other than a closed
//! kan or a kita …) is declined, and the Python route samples that game.

use crate::hand::{closed, pairs, KINDS};
use crate::tenhou_shuffle::{Shuffler, Wall};
use crate::tenhou_xml::{attributes, decline, get, ints, move_tag, one_int, tiles, walk, Declined};

/// How many deals of a seed are tried to place a record's first round (`SEARCH_DEALS`).
const SEARCH_DEALS: usize = 64;

/// A riichi win's ura: the winner's seat, hits, expected hits and their variance.
pub type Ura = (usize, i64, f64, f64);

/// One round's sample (`RoundSample` of a proven round).
#[derive(Debug, Clone, PartialEq)]
pub struct RoundOut {
    pub wind: i64,
    pub number: i64,
    pub honba: i64,
    pub dealer: usize,
    /// Players, live tiles, replacement tiles, dora and ura indicators.
    pub layout: [usize; 5],
    pub kinds: Vec<u8>,
    pub dice: (u8, u8),
    pub shanten: Vec<i32>,
    pub pairs: Vec<u8>,
    pub ura: Vec<Ura>,
}

/// Where a round's tiles sit in `yama` (`Layout` of `mjlog.wall.tenhou_shuffle`).
struct Layout {
    size: usize,
    first_draw: usize,
    dora: [usize; 5],
    ura: [usize; 5],
    rinshan: Vec<usize>,
}

impl Layout {
    /// The measured layout for `players` and the seed form (`hex`: each pair swapped).
    fn new(players: usize, hex: bool) -> Self {
        let size = if players == 4 { 136 } else { 108 };
        let base = if players == 4 { 4 } else { 8 };
        let swap = usize::from(!hex);
        Layout {
            size,
            first_draw: size - 13 * players - 1,
            dora: std::array::from_fn(|k| base + 2 * k + swap),
            ura: std::array::from_fn(|k| base + 2 * k + 1 - swap),
            rinshan: (0..base).map(|k| k ^ swap).collect(),
        }
    }
}

/// A wall read with its layout (`TenhouWall`).
struct Read<'w> {
    wall: &'w Wall,
    at: &'w Layout,
    players: usize,
}

impl Read<'_> {
    fn hands(&self, dealer: usize) -> Vec<Vec<u8>> {
        let (y, n) = (&self.wall.yama, self.players);
        let mut out = vec![Vec::with_capacity(13); n];
        let mut pos = self.at.size - 1;
        for _ in 0..3 {
            for k in 0..n {
                out[(dealer + k) % n].extend((0..4).map(|i| y[pos - i]));
                pos -= 4;
            }
        }
        for k in 0..n {
            out[(dealer + k) % n].push(y[pos]);
            pos -= 1;
        }
        out
    }
    fn live(&self) -> usize {
        self.at.first_draw + 1 - 14
    }
    fn draw(&self, k: usize) -> Option<u8> {
        (k <= self.at.first_draw).then(|| self.wall.yama[self.at.first_draw - k])
    }
    fn rinshan(&self, k: usize) -> Option<u8> {
        self.at.rinshan.get(k).map(|&i| self.wall.yama[i])
    }
    fn dora(&self, k: usize) -> Option<u8> {
        self.at.dora.get(k).map(|&i| self.wall.yama[i])
    }
    fn ura(&self, k: usize) -> Option<u8> {
        self.at.ura.get(k).map(|&i| self.wall.yama[i])
    }
}

/// The round being read: its record and what is left unseen.
struct Round {
    out: RoundOut,
    hands: Vec<Vec<u8>>,
    wall: Wall,
    draws: usize,
    rinshan: usize,
    doras: Vec<u8>,
    rinshan_next: Vec<bool>,
    riichi_pending: Vec<bool>,
    riichi: Vec<bool>,
    left: [i64; KINDS],
    first: bool,
}

/// Read a game's round samples, given its seed's key words and form; declines as the
/// module says. `players` is the game's table (from its `GO`).
pub fn read(
    text: &[u8],
    words: &[u32],
    hex: bool,
    players: usize,
) -> Result<Vec<RoundOut>, Declined> {
    let mut game = Game {
        shuffler: Shuffler::new(words, false).map_err(|e| e.to_string())?,
        layout: Layout::new(players, hex),
        players,
        round: None,
        rounds: Vec::new(),
        placed: false,
    };
    walk(text, |el, _| {
        let name = el.name();
        let tag: &str = name.as_ref();
        if let Some((k, tile)) = move_tag(tag) {
            return game.mv(k, tile as u8);
        }
        let attrs = attributes(el)?;
        let a = |key: &str| get(&attrs, key);
        match tag {
            "INIT" => game.init(
                a("seed"),
                a("oya"),
                &[a("hai0"), a("hai1"), a("hai2"), a("hai3")],
            ),
            "N" => game.meld(one_int(a("who"))?, one_int(a("m"))?),
            "REACH" if a("step") == Some("1") => game.pending(one_int(a("who"))?),
            "DORA" => game.dora(tiles(a("hai"))?[0]),
            "AGARI" => game.agari(&attrs),
            _ => game.other(),
        }
    })?;
    game.close()?;
    Ok(game.rounds)
}

struct Game {
    shuffler: Shuffler,
    layout: Layout,
    players: usize,
    round: Option<Round>,
    rounds: Vec<RoundOut>,
    placed: bool,
}

fn kind(t: u8) -> usize {
    usize::from(t >> 2)
}

impl Game {
    fn round(&mut self) -> Result<&mut Round, Declined> {
        self.round
            .as_mut()
            .ok_or_else(|| "not in a round".to_string())
    }

    /// An element that is not a move: the dealer's first draw must come first.
    fn other(&mut self) -> Result<(), Declined> {
        if self.round.as_ref().is_some_and(|r| r.first) {
            return decline("an element between a deal and the dealer's first draw");
        }
        Ok(())
    }

    fn init(
        &mut self,
        seed: Option<&str>,
        oya: Option<&str>,
        hai: &[Option<&str>],
    ) -> Result<(), Declined> {
        self.close()?;
        let seed = ints(seed)?;
        let dealer = one_int(oya)? as usize;
        let mut hands = Vec::with_capacity(self.players);
        for text in &hai[..self.players] {
            let mut hand = tiles(*text)?;
            hand.sort_unstable();
            hands.push(hand);
        }
        let wall = self.next_wall(&hands, dealer)?;
        let n = self.players;
        let mut left = [0i64; KINDS];
        for (k, slot) in left.iter_mut().enumerate() {
            *slot = if n == 3 && (1..=7).contains(&k) { 0 } else { 4 };
        }
        for &t in hands.iter().flatten() {
            left[kind(t)] -= 1;
        }
        left[kind(seed[5] as u8)] -= 1;
        let (wind, number) = (seed[0].div_euclid(4), seed[0].rem_euclid(4) + 1);
        self.round = Some(Round {
            out: RoundOut {
                wind,
                number,
                honba: seed[1],
                dealer,
                layout: [0; 5],
                kinds: Vec::new(),
                dice: wall.dice,
                shanten: Vec::new(),
                pairs: Vec::new(),
                ura: Vec::new(),
            },
            hands,
            wall,
            draws: 0,
            rinshan: 0,
            doras: vec![seed[5] as u8],
            rinshan_next: vec![false; n],
            riichi_pending: vec![false; n],
            riichi: vec![false; n],
            left,
            first: true,
        });
        Ok(())
    }

    /// The round's wall: the next of the seed's, the first placed among its first deals.
    fn next_wall(&mut self, hands: &[Vec<u8>], dealer: usize) -> Result<Wall, Declined> {
        let tries = if self.placed { 1 } else { SEARCH_DEALS };
        self.placed = true;
        for _ in 0..tries {
            let wall = self
                .shuffler
                .next_wall(self.players as u32)
                .map_err(|e| e.to_string())?;
            let read = Read {
                wall: &wall,
                at: &self.layout,
                players: self.players,
            };
            let dealt = read.hands(dealer);
            let same = dealt.iter().zip(hands).all(|(d, h)| {
                let mut d = d.clone();
                d.sort_unstable();
                d == *h
            });
            if same {
                return Ok(wall);
            }
            if tries == 1 {
                return decline("a dealt hand is not the wall's");
            }
        }
        decline("no deal of the seed gives the first round's hands")
    }

    fn mv(&mut self, k: usize, t: u8) -> Result<(), Declined> {
        let (p, draw) = (k % 4, k < 4);
        let layout_first = self.layout.first_draw;
        let (players, layout) = (self.players, &self.layout);
        let round = self
            .round
            .as_mut()
            .ok_or_else(|| "a move outside a round".to_string())?;
        let read = Read {
            wall: &round.wall,
            at: layout,
            players,
        };
        if round.first {
            if !(draw && p == round.out.dealer) {
                return decline("a round that does not start with the dealer's draw");
            }
            round.first = false;
            let mut hand = round.hands[p].clone();
            hand.push(t);
            let _ = layout_first;
            round.hands[p] = hand;
        }
        if !draw {
            if std::mem::replace(&mut round.riichi_pending[p], false) {
                round.riichi[p] = true;
            }
            return Ok(());
        }
        round.left[kind(t)] -= 1;
        let want = if std::mem::replace(&mut round.rinshan_next[p], false) {
            round.rinshan += 1;
            if round.rinshan > read.at.rinshan.len() {
                None
            } else {
                read.rinshan(round.rinshan - 1)
            }
        } else {
            round.draws += 1;
            read.draw(round.draws - 1)
        };
        if want != Some(t) {
            return decline("a draw that is not the wall's");
        }
        Ok(())
    }

    fn meld(&mut self, who: i64, m: i64) -> Result<(), Declined> {
        self.other()?;
        let kan_or_kita = m & 0x4 == 0 && (m & 0x18 == 0 || m & 0x10 != 0);
        let round = self.round()?;
        if kan_or_kita {
            round.rinshan_next[who as usize] = true;
        }
        Ok(())
    }

    fn pending(&mut self, who: i64) -> Result<(), Declined> {
        self.other()?;
        self.round()?.riichi_pending[who as usize] = true;
        Ok(())
    }

    fn dora(&mut self, t: u8) -> Result<(), Declined> {
        self.other()?;
        let round = self.round()?;
        round.left[kind(t)] -= 1;
        round.doras.push(t);
        Ok(())
    }

    fn agari(&mut self, attrs: &crate::tenhou_xml::Borrowed<'_>) -> Result<(), Declined> {
        self.other()?;
        let three = self.players == 3;
        let layout = &self.layout;
        let players = self.players;
        let round = self
            .round
            .as_mut()
            .ok_or_else(|| "not in a round".to_string())?;
        let read = Read {
            wall: &round.wall,
            at: layout,
            players,
        };
        let who = one_int(get(attrs, "who"))? as usize;
        let ura = tiles(Some(get(attrs, "doraHaiUra").unwrap_or("")))?;
        if ura.iter().enumerate().any(|(k, &t)| read.ura(k) != Some(t)) {
            return decline("an ura indicator that is not the wall's");
        }
        if !round.riichi[who] || ura.is_empty() {
            return Ok(());
        }
        let mut mine = [0i64; KINDS];
        for t in tiles(get(attrs, "hai"))? {
            mine[kind(t)] += 1;
        }
        for m in ints(Some(get(attrs, "m").unwrap_or("")))? {
            for t in closed_meld(m)? {
                mine[kind(t)] += 1;
            }
        }
        let unseen: Vec<i64> = round.left.iter().map(|&u| u.max(0)).collect();
        let (mean, var) = expected_hits(&unseen, &mine, three);
        let hits = ura.iter().map(|&t| mine[next_kind(kind(t), three)]).sum();
        let m = ura.len() as f64;
        round.out.ura.push((who, hits, m * mean, m * var));
        Ok(())
    }

    /// Finish the round being read: check its dora indicators, count its positions and
    /// its starting hands.
    fn close(&mut self) -> Result<(), Declined> {
        let Some(round) = self.round.take() else {
            return Ok(());
        };
        if round.first {
            return decline("a round without the dealer's first draw");
        }
        let read = Read {
            wall: &round.wall,
            at: &self.layout,
            players: self.players,
        };
        if round
            .doras
            .iter()
            .enumerate()
            .any(|(k, &t)| k < 5 && read.dora(k) != Some(t))
        {
            return decline("a dora indicator that is not the wall's");
        }
        let mut out = round.out;
        let n = self.players;
        let (live, rin) = (read.live(), read.at.rinshan.len());
        let pairs_held = (self.layout.size - 13 * n - live - rin) / 2;
        let pairs_held = pairs_held.min(5);
        out.layout = [n, live, rin, pairs_held, pairs_held];
        let dealt = read.hands(out.dealer);
        for k in 0..n {
            out.kinds
                .extend(dealt[(out.dealer + k) % n].iter().map(|&t| t >> 2));
        }
        out.kinds
            .extend((0..live).map(|k| read.draw(k).unwrap_or(0) >> 2));
        out.kinds
            .extend((0..rin).map(|k| read.rinshan(k).unwrap_or(0) >> 2));
        out.kinds
            .extend((0..pairs_held).map(|k| read.dora(k).unwrap_or(0) >> 2));
        out.kinds
            .extend((0..pairs_held).map(|k| read.ura(k).unwrap_or(0) >> 2));
        for hand in &round.hands {
            let mut c = [0u8; KINDS];
            for &t in hand {
                c[kind(t)] += 1;
            }
            out.shanten.push(closed(&c));
            out.pairs.push(pairs(&c));
        }
        self.rounds.push(out);
        Ok(())
    }
}

/// The tiles of a riichi winner's meld from its bit field: a closed kan or a kita only.
fn closed_meld(m: i64) -> Result<Vec<u8>, Declined> {
    if m < 0 || m & 0x4 != 0 || m & 0x18 != 0 {
        return decline("a riichi winner's meld other than a closed kan or a kita");
    }
    if m & 0x20 != 0 {
        let t = m >> 8;
        return if t < 136 {
            Ok(vec![t as u8])
        } else {
            decline("a kita of no tile")
        };
    }
    let hai0 = (m & 0xFF00) >> 8;
    if hai0 >= 136 || m & 3 != 0 {
        return decline("a riichi winner's open kan");
    }
    let base = (hai0 / 4 * 4) as u8;
    Ok((0..4).map(|i| base + i).collect())
}

/// The dora a kind of indicator points to (`next_kind`).
pub fn next_kind(indicator: usize, three: bool) -> usize {
    if indicator < 27 {
        if three && indicator == 0 {
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

/// Mean and variance of the dora a hand holds for one indicator drawn uniformly from the
/// unseen tiles (`expected_hits`).
pub fn expected_hits(unseen: &[i64], mine: &[i64; KINDS], three: bool) -> (f64, f64) {
    let total: i64 = unseen.iter().sum();
    if total == 0 {
        return (0.0, 0.0);
    }
    let first: i64 = unseen
        .iter()
        .enumerate()
        .map(|(k, u)| u * mine[next_kind(k, three)])
        .sum();
    let second: i64 = unseen
        .iter()
        .enumerate()
        .map(|(k, u)| u * mine[next_kind(k, three)] * mine[next_kind(k, three)])
        .sum();
    let mean = first as f64 / total as f64;
    (mean, second as f64 / total as f64 - mean * mean)
}
